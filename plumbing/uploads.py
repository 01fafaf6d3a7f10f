"""Uploads are session files of a few kilobytes; a larger one is dropped while it
arrives, before any of it is kept in memory or written to disk."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload

TOO_LARGE = "upload_too_large"


class SizeLimitedUploadHandler(FileUploadHandler):
    """Stops reading a file upload past ``SESSION_FILE_MAX_BYTES`` and marks the
    request, so that the view can say why the file is missing. The rest of the
    request body is read and thrown away, so the answer still reaches the client."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > settings.SESSION_FILE_MAX_BYTES:
            if self.request is not None:
                setattr(self.request, TOO_LARGE, True)
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler builds the file


def upload_too_large(request: Any) -> bool:
    return bool(getattr(request, TOO_LARGE, False))
