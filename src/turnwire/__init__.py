"""turnwire: the conformance kit for AI-agent runtimes."""
