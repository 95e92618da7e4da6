"""The bench's isolated agent: one call, no imports (its own import costs nothing to measure)."""


class OneCall:
    def run(self, episode):  # type: ignore[no-untyped-def]
        episode.call(episode.tools[0]["name"], {})
