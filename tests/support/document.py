"""The served OpenAPI document as a judge of answers: each operation's schema for a status, as a JSON Schema
validator whose references resolve in the document."""
from __future__ import annotations

import re
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker


class Document:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.templates = [(re.compile(re.sub(r"\{[^}/]+\}", "[^/]+", path) + "$"), path) for path in document["paths"]]

    def template(self, path: str) -> str:
        """The document's path for a request's path (/games/{game_id}/audit/{seq} for /games/0f…/audit/3)."""
        found = [template for pattern, template in self.templates if pattern.match(path)]
        assert found, f"no operation for {path}"
        return min(found, key=lambda t: t.count("{"))  # /games/{game_id}/undo/approve, not .../{seq}-like ones

    def schema(self, method: str, path: str, status: int, media: str) -> dict[str, Any]:
        operation = self.document["paths"][self.template(path)][method.lower()]
        response = operation["responses"].get(str(status))
        assert response is not None, f"{method} {path}: {status} is not documented"
        content = response.get("content", {})
        assert media in content, f"{method} {path} {status}: {media} is not documented (only {sorted(content)})"
        return content[media]["schema"]

    def validator(self, method: str, path: str, status: int, media: str) -> Draft202012Validator:
        return self._validator(method.lower(), self.template(path), status, media)

    @cache  # noqa: B019 -- one Document per test module, its validators kept as long as it is
    def _validator(self, method: str, template: str, status: int, media: str) -> Draft202012Validator:
        schema = {**self.schema(method, template, status, media), "components": self.document["components"]}
        return Draft202012Validator(schema, format_checker=FormatChecker())

    def component(self, name: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": self.document["components"]},
                                    format_checker=FormatChecker())

    def mismatches(self, method: str, path: str, status: int, media: str, body: Any) -> list[str]:
        """What in `body` the document does not allow, each with where it is; empty when it conforms."""
        judge = self.validator(method, path, status, media)
        return [f"{'/'.join(map(str, error.absolute_path)) or '(the body)'}: {error.message[:300]}"
                for error in judge.iter_errors(body)]
