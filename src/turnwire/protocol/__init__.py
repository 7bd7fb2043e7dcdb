"""The UI message protocol (Vercel AI SDK `UIMessage` family), one module per profile.

`v5`, `v6` and `v7` hold the part, message and chunk models of each major; `registry.models(profile)`
hands them out by profile; `validate` turns what the models reject into graded findings.
"""

from turnwire.protocol.registry import ProtocolModels, models
from turnwire.protocol.validate import is_fatal, validate_chunk, validate_message

__all__ = ["ProtocolModels", "is_fatal", "models", "validate_chunk", "validate_message"]
