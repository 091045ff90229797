"""``GET /api/house-edge``: the DM's dial (``tavern odds blackjack --edge``) as JSON for
the create page, its refusals, and a table created with the rules it chose."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from web_support import live_server

from tavern_dice.strategy.blackjack.dial import dial


@pytest.mark.asyncio
async def test_web_house_edge_answers_as_the_cli_dial(tmp_path: Any) -> None:
    async with live_server(f"sqlite:///{tmp_path / 'tavern.sqlite3'}") as server, \
            server.client() as http:
        # A cold solve takes seconds, and many more on a loaded machine.
        response = await http.get("/api/house-edge", params={"edge": "2%"}, timeout=60)
        assert response.status_code == 200, response.text
        data = response.json()
        expected = dial(Fraction(2, 100))
        assert data["target_exact"] == "1/50" and data["bonuses"] == [0, 1, 2, 3]
        assert len(data["candidates"]) == len(expected.candidates)
        chosen = data["chosen"]
        assert chosen["table_edge_exact"] == str(expected.chosen.table_edge)
        assert chosen["edges_exact"] == [str(e) for e in expected.chosen.edges]
        assert chosen["flags"] == expected.chosen.flags()
        assert [c for c in data["candidates"] if c["chosen"]] == [chosen]
        edges = [c["table_edge"] for c in data["candidates"]]
        assert edges == sorted(edges)
        assert data["rules"] == expected.chosen.rules.to_dict()
        # A fraction of the bet reads as well as a percentage; bonuses of a table.
        same = (await http.get("/api/house-edge", params={"edge": "0.02"})).json()
        assert same["chosen"] == chosen
        small = (await http.get("/api/house-edge",
                                params={"edge": "1%", "bonuses": "0,1"})).json()
        assert small["bonuses"] == [0, 1]
        assert small["chosen"]["table_edge_exact"] == str(
            dial(Fraction(1, 100), (0, 1)).chosen.table_edge)

        # The chosen rules create a Dice Blackjack table as they are.
        created = await http.post("/api/tables", json={"game": "blackjack",
                                                       "rules": data["rules"]})
        assert created.status_code == 201, created.text
        table = (await http.get(f"/api/tables/{created.json()['table_id']}")).json()
        assert table["rules"] == data["rules"]


@pytest.mark.asyncio
async def test_web_house_edge_refuses_bad_input(tmp_path: Any) -> None:
    async with live_server(f"sqlite:///{tmp_path / 'tavern.sqlite3'}") as server, \
            server.client() as http:
        bad: list[tuple[dict[str, str], str, str]] = [
            ({}, "edge", "?edge=2%"),
            ({"edge": "two percent"}, "edge", "such as 2%"),
            ({"edge": "nan"}, "edge", "such as 2%"),
            ({"edge": ""}, "edge", "such as 2%"),
            ({"edge": "150%"}, "edge", "-100% to 100%"),
            ({"edge": "2" * 40}, "edge", "at most 32"),
            ({"edge": "2%", "bonuses": "4"}, "bonuses", "0-3"),
            ({"edge": "2%", "bonuses": "-1"}, "bonuses", "0-3"),
            ({"edge": "2%", "bonuses": "1.5"}, "bonuses", "0-3"),
            ({"edge": "2%", "bonuses": "a,b"}, "bonuses", "0-3"),
            ({"edge": "2%", "bonuses": ""}, "bonuses", "0-3"),
            ({"edge": "2%", "bonuses": "0,1,2,3,3"}, "bonuses", "one to four"),
        ]
        for params, field, hint in bad:
            response = await http.get("/api/house-edge", params=params)
            assert response.status_code == 422, (params, response.text)
            body = response.json()
            assert body["field"] == field and body["detail"].startswith(f"{field}:"), body
            assert hint in body["detail"], body
