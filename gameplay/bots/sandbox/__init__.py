"""Hosted bots: strangers' code run in a bubblewrap sandbox (docs/sandbox.md).

``jail`` builds and runs the sandbox, ``program`` plays a bot in it over president-bot/1's
program form, ``unpack`` checks and unpacks an uploaded zip.
"""

from gameplay.bots.sandbox.jail import Limits, SandboxUnavailable, available
from gameplay.bots.sandbox.program import SandboxedProgram
from gameplay.bots.sandbox.unpack import BadUpload, unpack_upload

__all__ = ["BadUpload", "Limits", "SandboxUnavailable", "SandboxedProgram", "available",
           "unpack_upload"]
