"""The web table's routes, one router a job; :func:`tavern_dice.web.app.create_app`
includes them (routes listed in ``docs/web-protocol.md``).

- :mod:`.common`: what the routes share: the app's state reached from a request (the
  table manager, the peer client, the metrics), the table or game a path names, bodies
  read and checked, QR codes.
- :mod:`.pages`: the HTML pages (``/``, ``/t/…``, ``/host/…``, ``/review/…``).
- :mod:`.operator`: ``/api/health``, ``/healthz`` and ``/metrics``, for the operator.
- :mod:`.tables`: the catalog, creating and joining a table, the DM's key and links.
- :mod:`.games`: gold, games and exports, read from the database.
- :mod:`.sockets`: the WebSocket a seat plays through (``/ws/…``).

The house-edge dial (:mod:`tavern_dice.web.house_edge`) and the post-game review
(:mod:`tavern_dice.web.review`) bring their own routers.
"""
