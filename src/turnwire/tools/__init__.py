"""Tools, MCP servers and the `/run` request: the contract between a service and an agent runner.

A user *stores* tools as `ToolConfig`s (and MCP servers as `MCPServerConfig`s); `ToolResolver` and
`MCPResolver` turn them, offline, into what a runner *receives* — `ToolSpec`s and `ResolvedMCPServer`s —
pulling secrets through a `SecretProvider` port and gateway tools through a `GatewayResolver` port.
`RunRequest` is the `/run` body carrying it all. Resolution raises typed `ToolError`s; the checks in
`turnwire.tools.checks` judge a target's output and return findings instead.

One module per concept: `config`, `spec`, `compat`, `resolved`, `ports`, `resolver`, `mcp`,
`session_config`, `run_request`, `secrets`, `errors`, `checks`.
"""

from turnwire.tools.checks import (
    check_mcp_server_configs,
    check_run_request,
    check_secret_placement,
    check_tool_configs,
    run_request_redactor,
)
from turnwire.tools.compat import (
    ToolConfigDiagnostic,
    ToolConfigParseResult,
    coerce_tool_config,
    coerce_tool_configs,
    is_canonical_tool_config,
    parse_gateway_slug,
)
from turnwire.tools.config import (
    BuiltinToolConfig,
    ClientToolConfig,
    CodeToolConfig,
    GatewayToolConfig,
    ToolConfig,
    parse_tool_config,
    parse_tool_configs,
)
from turnwire.tools.errors import (
    DuplicateToolNameError,
    GatewayToolResolutionError,
    InvalidToolSpecError,
    MCPConfigurationError,
    MCPError,
    MissingMCPSecretError,
    MissingToolSecretError,
    SecretProviderError,
    ToolConfigError,
    ToolConfigurationError,
    ToolError,
    ToolResolutionError,
    UnsupportedToolProviderError,
)
from turnwire.tools.mcp import (
    MCPResolver,
    MCPServerConfig,
    ResolvedMCPServer,
    parse_mcp_server_config,
    parse_mcp_server_configs,
)
from turnwire.tools.ports import EnvironmentSecretProvider, GatewayResolver, MappingSecretProvider, SecretProvider
from turnwire.tools.resolved import GatewayToolResolution, ResolvedToolSet
from turnwire.tools.resolver import ToolResolver
from turnwire.tools.run_request import (
    KNOWN_REQUEST_KEYS,
    SECRET_LOCATIONS,
    RunMessage,
    RunRequest,
    RunTrace,
    run_request_adapter,
)
from turnwire.tools.secrets import REDACTED, MissingSecretPolicy, Redactor, Secret, redact
from turnwire.tools.session_config import AgentTools, SessionConfig
from turnwire.tools.spec import (
    CallbackToolSpec,
    ClientToolSpec,
    CodeToolSpec,
    ToolCallback,
    ToolSpec,
    coerce_tool_spec,
)

__all__ = [
    "KNOWN_REQUEST_KEYS",
    "REDACTED",
    "SECRET_LOCATIONS",
    "AgentTools",
    "BuiltinToolConfig",
    "CallbackToolSpec",
    "ClientToolConfig",
    "ClientToolSpec",
    "CodeToolConfig",
    "CodeToolSpec",
    "DuplicateToolNameError",
    "EnvironmentSecretProvider",
    "GatewayResolver",
    "GatewayToolConfig",
    "GatewayToolResolution",
    "GatewayToolResolutionError",
    "InvalidToolSpecError",
    "MCPConfigurationError",
    "MCPError",
    "MCPResolver",
    "MCPServerConfig",
    "MappingSecretProvider",
    "MissingMCPSecretError",
    "MissingSecretPolicy",
    "MissingToolSecretError",
    "Redactor",
    "ResolvedMCPServer",
    "ResolvedToolSet",
    "RunMessage",
    "RunRequest",
    "RunTrace",
    "Secret",
    "SecretProvider",
    "SecretProviderError",
    "SessionConfig",
    "ToolCallback",
    "ToolConfig",
    "ToolConfigDiagnostic",
    "ToolConfigError",
    "ToolConfigParseResult",
    "ToolConfigurationError",
    "ToolError",
    "ToolResolutionError",
    "ToolResolver",
    "ToolSpec",
    "UnsupportedToolProviderError",
    "check_mcp_server_configs",
    "check_run_request",
    "check_secret_placement",
    "check_tool_configs",
    "coerce_tool_config",
    "coerce_tool_configs",
    "coerce_tool_spec",
    "is_canonical_tool_config",
    "parse_gateway_slug",
    "parse_mcp_server_config",
    "parse_mcp_server_configs",
    "parse_tool_config",
    "parse_tool_configs",
    "redact",
    "run_request_adapter",
    "run_request_redactor",
]
