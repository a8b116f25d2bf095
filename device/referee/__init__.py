"""The referee: watches the table, judges every change with the engine, never forgets a move.

``journal`` keeps every accepted event on disk so a power cut loses nothing; ``history``
stores finished games; ``watcher`` decides when the table is still enough to read;
``loop`` is the referee's state machine; ``virtual_players`` plays a simulated game for
``zefiria demo`` and the tests.
"""
