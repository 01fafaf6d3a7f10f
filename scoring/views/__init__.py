"""Views: fetch, bind, call a service, render or redirect.

One view serves a full page or, for htmx, a named fragment of it. Every page
works without JavaScript; htmx only spares the reload. By what they show:
``sessions`` (list, new, import), ``sheets`` (the sheet, settlement, print,
downloads), ``hands`` (record, correct, delete, restore), ``sharing``.
"""
