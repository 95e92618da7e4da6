"""Helpers for the tests: example tasks and results files (``tasks``), scripted model servers
(``openai_fake``, ``anthropic_fake``), a headless browser (``chromium``), the docs' code blocks
(``docblocks``), the shop environment (``shop_env``), the booking player (``booking_play``) and an
auditor's agents (``audit_agents``)."""
