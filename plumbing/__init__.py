"""The web's plumbing, below every app: what pages, requests and the database
share and no game or evening knows about. It imports no app."""
