"""Königrufen's tests in one place: its engine (engine/, also run under Pyodide), its
pages and files without a browser (here), its club money, and its pages in the
browser (browser/)."""
