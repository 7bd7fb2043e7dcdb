"""The resolver's two ports: where secrets come from, and who resolves gateway tools.

Resolution stays offline and platform-free: turnwire owns the shapes and the secret plumbing, but no
vault and no gateway. A server plugs those in behind these two protocols. The default secret provider
reads the process environment, so a standalone resolve needs nothing else; there is no default gateway
resolver, so gateway tools fail with `UnsupportedToolProviderError` unless one is injected.

Both ports are async: a real provider talks to a vault or a gateway over the network.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from turnwire.tools.config import GatewayToolConfig
from turnwire.tools.errors import SecretProviderError, ToolError
from turnwire.tools.resolved import GatewayToolResolution

__all__ = [
    "EnvironmentSecretProvider",
    "GatewayResolver",
    "MappingSecretProvider",
    "SecretProvider",
    "fetch_secrets",
]


@runtime_checkable
class SecretProvider(Protocol):
    """Looks secrets up by name, many at once."""

    async def get_many(self, names: Sequence[str]) -> Mapping[str, str]:
        """The values of those `names` it has; names it lacks are simply absent from the result."""
        ...


@runtime_checkable
class GatewayResolver(Protocol):
    """Turns gateway tool configs into callback specs plus the callback endpoint."""

    async def resolve(self, tools: Sequence[GatewayToolConfig]) -> GatewayToolResolution:
        """Resolve every gateway config (in order), keeping their `needs_approval` / `render`."""
        ...


class MappingSecretProvider:
    """Secrets from a fixed mapping (tests, generators, callers that already hold the values)."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self._values = dict(values)

    def __repr__(self) -> str:
        return f"MappingSecretProvider(<{len(self._values)} secret(s)>)"

    async def get_many(self, names: Sequence[str]) -> Mapping[str, str]:
        """The values of the requested names that the mapping has."""
        return {name: self._values[name] for name in names if name in self._values}


class EnvironmentSecretProvider:
    """Secrets from the process environment (read at each call), the resolvers' default provider."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self._environ = environ  # None: `os.environ` as it is at each call

    def __repr__(self) -> str:
        return "EnvironmentSecretProvider()"

    async def get_many(self, names: Sequence[str]) -> Mapping[str, str]:
        """The requested names present in the environment."""
        environ = os.environ if self._environ is None else self._environ
        return {name: environ[name] for name in names if name in environ}


async def fetch_secrets(provider: SecretProvider, names: Iterable[str]) -> dict[str, str]:
    """One batched lookup of `names` (sorted, unique); skipped when there are none.

    A provider that raises, or answers with anything but a mapping of str to str, is a
    `SecretProviderError` (its own message is not repeated: it might quote a value).
    """
    wanted = sorted(set(names))
    if not wanted:
        return {}
    try:
        found = await provider.get_many(wanted)
    except ToolError:
        raise
    except Exception as exc:
        raise SecretProviderError(f"secret provider failed ({type(exc).__name__})") from exc
    if not isinstance(found, Mapping):
        raise SecretProviderError(f"secret provider returned {type(found).__name__}, not a mapping")
    out: dict[str, str] = {}
    for name in wanted:
        if name in found:
            value = found[name]
            if not isinstance(value, str):
                raise SecretProviderError(f"secret provider returned a non-string value for {name}")
            out[name] = value
    return out
