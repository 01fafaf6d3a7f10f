"""Uploads are files of a few kilobytes; a larger one is dropped while it arrives,
before any of it is kept in memory or written to disk. The limit is a session
file's (``SESSION_FILE_MAX_BYTES``) unless the view that takes the upload says
another (``accepts_upload``): a tournament file may be larger."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload

TOO_LARGE = "upload_too_large"
V = TypeVar("V", bound=Callable[..., Any])


LIMIT = "upload_limit"


def accepts_upload(most: int) -> Callable[[V], V]:
    """A view that takes uploads of up to ``most`` bytes (the handler reads the
    limit from the view the address resolved to, before the body is read)."""

    def mark(view: V) -> V:
        setattr(view, LIMIT, most)
        return view

    return mark


def upload_limit(request: Any) -> int:
    """The most bytes an upload to this request's view may have."""
    view = getattr(getattr(request, "resolver_match", None), "func", None)
    return int(getattr(view, LIMIT, settings.SESSION_FILE_MAX_BYTES))


class SizeLimitedUploadHandler(FileUploadHandler):
    """Stops reading a file upload past its view's limit (``upload_limit``) and
    marks the request, so that the view can say why the file is missing. The rest
    of the request body is read and thrown away, so the answer still reaches the client."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > upload_limit(self.request):
            if self.request is not None:
                setattr(self.request, TOO_LARGE, True)
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler builds the file


def upload_too_large(request: Any) -> bool:
    return bool(getattr(request, TOO_LARGE, False))
