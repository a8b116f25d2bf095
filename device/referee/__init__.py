"""The referee: watches the table, judges every change with the engine, never forgets a move.

- ``loop``: the :class:`~zefiria.device.referee.loop.Referee` state machine (no hardware);
- ``session``: camera, watcher, buttons, screen and lights around a Referee;
- ``journal``: every accepted event on disk (fsync) so a power cut loses nothing;
- ``history``: finished games in SQLite;
- ``watcher``: when the table is still and changed enough to read;
- ``confirm``: deduce and merge photos before charging a change the camera half saw;
- ``menu`` and ``words``: the setup menu and the referee's words in English and Italian;
- ``virtual_players``, ``simulation`` and ``demo``: whole games at a virtual table.
"""
