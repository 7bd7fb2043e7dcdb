"""turnwire: the conformance kit for AI-agent runtimes.

The public API of the wire core. Submodules hold the details: `turnwire.canonical` (RFC 8785 bytes),
`turnwire.sse` (the SSE codec), `turnwire.protocol` (parts, messages and chunks per profile),
`turnwire.fold` (chunks → message), `turnwire.stream` (a recorded stream end to end),
`turnwire.normalise` (ids and timestamps for golden comparison), `turnwire.generate` (schemas, goldens).
"""

from turnwire.canonical import CanonicalError
from turnwire.canonical import dumps as canonical_bytes
from turnwire.findings import Finding, Level
from turnwire.fold import Folder, FoldResult, fold
from turnwire.normalise import Normaliser
from turnwire.profiles import ALL_PROFILES, DEFAULT_PROFILE, Profile, parse_profile
from turnwire.protocol import validate_chunk, validate_message
from turnwire.requirements import Requirement, requirement
from turnwire.sse import SSEDecoder, check_headers, decode, encode_stream
from turnwire.stream import StreamResult, read_stream

__version__ = "0.1.0"

__all__ = [
    "ALL_PROFILES",
    "DEFAULT_PROFILE",
    "CanonicalError",
    "Finding",
    "FoldResult",
    "Folder",
    "Level",
    "Normaliser",
    "Profile",
    "Requirement",
    "SSEDecoder",
    "StreamResult",
    "__version__",
    "canonical_bytes",
    "check_headers",
    "decode",
    "encode_stream",
    "fold",
    "parse_profile",
    "read_stream",
    "requirement",
    "validate_chunk",
    "validate_message",
]
