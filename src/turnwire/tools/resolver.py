"""`ToolResolver`: stored tool configs → the resolved tool set, offline.

The only bridge from what a user stores to what a runner executes. It asks the secret provider once,
for every secret any code tool declares (one batched request, sorted, de-duplicated), then gives each
code tool an `env` holding only *its own* declared secrets — a tool never sees another tool's secret.
Gateway tools are delegated to the injected gateway resolver; without one they are unsupported, since
no gateway can be reached offline. Finally every model-visible name must be unique: two tools with one
name would leave the model's choice ambiguous.

Everything that goes wrong raises a `ToolError` subclass; nothing else escapes, whatever the input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import SecretStr

from turnwire.tools.compat import coerce_tool_configs
from turnwire.tools.config import BuiltinToolConfig, ClientToolConfig, CodeToolConfig, GatewayToolConfig
from turnwire.tools.errors import (
    DuplicateToolNameError,
    GatewayToolResolutionError,
    MissingToolSecretError,
    ToolError,
    UnsupportedToolProviderError,
)
from turnwire.tools.ports import EnvironmentSecretProvider, GatewayResolver, SecretProvider, fetch_secrets
from turnwire.tools.resolved import GatewayToolResolution, ResolvedToolSet
from turnwire.tools.secrets import MissingSecretPolicy
from turnwire.tools.spec import ClientToolSpec, CodeToolSpec, ToolCallback, ToolSpec

__all__ = ["ToolResolver", "first_duplicate"]


def first_duplicate(names: Iterable[str]) -> str | None:
    """The first name that occurs a second time, or None."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


class ToolResolver:
    """Resolves stored tool configs into a `ResolvedToolSet`."""

    def __init__(
        self,
        *,
        secret_provider: SecretProvider | None = None,
        gateway_resolver: GatewayResolver | None = None,
        missing_secret_policy: MissingSecretPolicy = MissingSecretPolicy.ERROR,
    ) -> None:
        self.secret_provider: SecretProvider = secret_provider or EnvironmentSecretProvider()
        self.gateway_resolver = gateway_resolver
        self.missing_secret_policy = MissingSecretPolicy(missing_secret_policy)

    def __repr__(self) -> str:
        return (
            f"ToolResolver(secret_provider={self.secret_provider!r}, gateway_resolver={self.gateway_resolver!r}, "
            f"missing_secret_policy={self.missing_secret_policy.value!r})"
        )

    async def resolve(self, tool_configs: Iterable[object] | None) -> ResolvedToolSet:
        """Resolve configs (canonical or legacy shapes) in order: builtins, gateway specs, then local specs."""
        configs = coerce_tool_configs(tool_configs).tool_configs
        builtin_names = [c.name for c in configs if isinstance(c, BuiltinToolConfig)]
        code_configs = [c for c in configs if isinstance(c, CodeToolConfig)]
        found = await fetch_secrets(self.secret_provider, (s for c in code_configs for s in c.secrets))

        local_specs: list[ToolSpec] = []
        for config in configs:
            if isinstance(config, CodeToolConfig):
                local_specs.append(self._code_spec(config, found))
            elif isinstance(config, ClientToolConfig):
                local_specs.append(
                    ClientToolSpec(
                        name=config.name,
                        description=config.description or config.name,
                        input_schema=config.input_schema,
                        needs_approval=config.needs_approval,
                        render=config.render,
                    )
                )

        gateway_configs = [c for c in configs if isinstance(c, GatewayToolConfig)]
        specs: list[ToolSpec] = local_specs
        callback: ToolCallback | None = None
        if gateway_configs:
            resolution = await self._resolve_gateway(gateway_configs)
            specs = [*resolution.tool_specs, *local_specs]
            callback = resolution.tool_callback

        duplicate = first_duplicate([*builtin_names, *(s.name for s in specs)])
        if duplicate is not None:
            raise DuplicateToolNameError(duplicate)
        return ResolvedToolSet(builtin_names=builtin_names, tool_specs=specs, tool_callback=callback)

    def _code_spec(self, config: CodeToolConfig, found: Mapping[str, str]) -> CodeToolSpec:
        declared = list(dict.fromkeys(config.secrets))
        missing = [name for name in declared if name not in found]
        if missing and self.missing_secret_policy is MissingSecretPolicy.ERROR:
            raise MissingToolSecretError(tool_name=config.name, secret_names=missing)
        return CodeToolSpec(
            name=config.name,
            description=config.description or config.name,
            input_schema=config.input_schema,
            needs_approval=config.needs_approval,
            render=config.render,
            runtime=config.runtime,
            code=config.script,
            env={name: SecretStr(found[name]) for name in declared if name in found},
        )

    async def _resolve_gateway(self, configs: list[GatewayToolConfig]) -> GatewayToolResolution:
        if self.gateway_resolver is None:
            raise UnsupportedToolProviderError(configs[0].provider)
        try:
            resolution = await self.gateway_resolver.resolve(configs)
        except ToolError:
            raise
        except Exception as exc:
            raise GatewayToolResolutionError(
                f"gateway resolver failed ({type(exc).__name__})", provider=configs[0].provider
            ) from exc
        if not isinstance(resolution, GatewayToolResolution):
            raise GatewayToolResolutionError(
                f"gateway resolver returned {type(resolution).__name__}, not a GatewayToolResolution",
                provider=configs[0].provider,
            )
        return resolution
