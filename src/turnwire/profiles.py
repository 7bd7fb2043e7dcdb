"""The protocol versions turnwire knows, by name.

A *profile* names one major of the Vercel AI SDK UI message protocol. Everything that depends on the
protocol version (models, fold rules, goldens) is keyed by a `Profile`, so the set lives in one place.
"""

from __future__ import annotations

from enum import StrEnum


class Profile(StrEnum):
    """One supported major of the AI SDK UI message protocol."""

    V5 = "ai-sdk-v5"
    V6 = "ai-sdk-v6"
    V7 = "ai-sdk-v7"

    @property
    def major(self) -> int:
        """The AI SDK major this profile follows (5, 6 or 7)."""
        return int(self.value.rsplit("v", 1)[1])


DEFAULT_PROFILE = Profile.V7
"""The profile used wherever none is named."""

ALL_PROFILES: tuple[Profile, ...] = (Profile.V5, Profile.V6, Profile.V7)


def parse_profile(name: str) -> Profile:
    """Return the profile called `name`, or raise `ValueError` with the accepted names."""
    try:
        return Profile(name)
    except ValueError:
        accepted = ", ".join(p.value for p in ALL_PROFILES)
        raise ValueError(f"unknown profile {name!r}; expected one of: {accepted}") from None
