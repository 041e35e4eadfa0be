"""The baseline for free_roll_latency.py: a bare FastAPI endpoint that answers the JSON body it was sent."""
from __future__ import annotations

from typing import Any

from fastapi import FastAPI

app = FastAPI()


@app.post("/echo")
async def echo(body: dict[str, Any]) -> dict[str, Any]:
    return body
