"""The base of the package's simulated providers: Inspect's ``ModelAPI`` constructor, once.

Inspect builds a provider with ``(model_name, base_url, api_key, config, **model_args)``; every
simulated provider takes no API key and no base URL and reads its ``-M`` arguments strictly
(:mod:`inspect_stance.providers.args`) in :meth:`SimulatedAPI.configure`.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import GenerateConfig, ModelAPI


class SimulatedAPI(ModelAPI):
    """A ``ModelAPI`` whose subclasses implement :meth:`configure` instead of ``__init__``."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        self.configure(model_name, dict(model_args))

    def configure(self, model_name: str, model_args: dict[str, Any]) -> None:
        """Read the model name and the ``-M`` arguments; raise ``InputError`` on bad ones."""
        raise NotImplementedError
