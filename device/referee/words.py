"""The referee's own words on the OLED, in English and Italian (the players' choice).

Move descriptions, storm texts and ratings come from the engine in the chosen language too;
these are only the words around them.
"""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "on_table": "On the table",
        "right_again": "the table is right again",
        "no_change": "no change",
        "menu": "Menu",
        "undo_turn": "Undo the whole turn",
        "back": "Back",
        "menu_closed": "menu closed",
        "first": "Who plays first?",
        "sleeper": "Who sleeps next round?",
        "austro_exit": "Austro leaves beside",
        "no_hint": "no hint now",
        "camera": "Camera",
        "setup": "Setup",
        "layout": "layout read: place the pawns on the corners",
        "final": "Final score",
        "round": "Round",
        "gems_left": "purple gems left",
        "turn_over": "{who}'s turn is over",
        "nothing_to_undo": "nothing to undo",
        "cannot_end": "the turn cannot end now",
        "choose_first": "choose with the buttons first",
        "not_read": "{n} cards not read yet: straighten them",
        "unsure": "cards not read for sure at {where}: straighten them",
        "checking": "looking again before refusing that move",
        "pawn_unseen": "cannot see the pawn of {names}: set it upright in the middle of its card",
    },
    "it": {
        "on_table": "Sul tavolo",
        "right_again": "il tavolo è di nuovo giusto",
        "no_change": "nessun cambiamento",
        "menu": "Menu",
        "undo_turn": "Annulla tutto il turno",
        "back": "Indietro",
        "menu_closed": "menu chiuso",
        "first": "Chi gioca per primo?",
        "sleeper": "Chi dorme nel prossimo round?",
        "austro_exit": "Austro esce accanto a",
        "no_hint": "nessun suggerimento ora",
        "camera": "Fotocamera",
        "setup": "Preparazione",
        "layout": "griglia letta: mettete le pedine sugli angoli",
        "final": "Punteggio finale",
        "round": "Round",
        "gems_left": "gemme viola rimaste",
        "turn_over": "il turno di {who} è finito",
        "nothing_to_undo": "niente da annullare",
        "cannot_end": "il turno non può finire ora",
        "choose_first": "prima scegliete con i pulsanti",
        "not_read": "{n} carte non ancora lette: raddrizzatele",
        "unsure": "carte non lette con certezza in {where}: raddrizzatele",
        "checking": "guardo di nuovo prima di rifiutare la mossa",
        "pawn_unseen": "non vedo la pedina di {names}: mettetela dritta al centro della carta",
    },
}


def word(lang: str, key: str, **values: object) -> str:
    """The text for ``key`` in ``lang`` (English when the language is unknown)."""
    text = WORDS.get(lang, WORDS["en"])[key]
    return text.format(**values) if values else text
