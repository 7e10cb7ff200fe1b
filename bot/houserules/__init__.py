"""House rules: the rule fields a host changes in the lobby («Reglas de la casa»), a server's
default house rules and whether mesas under them are rated. `menu` is pure (engine only); the lobby
change goes through `TableService.change_lobby`; Discord lives in `present`, `items` and the cog."""
