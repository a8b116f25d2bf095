"""The terminal game's words in English and Italian (the rulebook's two languages).

Rule sentences (why an action is refused) come from the engine in English; everything the
terminal itself says is here, so a translation is one table.
"""

from __future__ import annotations

LANGS = ("en", "it")

_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "round": "Round {round}/{rounds}",
        "setup": "Setup",
        "purple": "purple gems left {n}",
        "turn_of": "{who} to play",
        "ap": "{n} AP",
        "gems": "red gems held: {held}; pool {pool}",
        "sleeping": "{who} sleeps",
        "phase_setup": "{who}: put your pawn on a corner ({options})",
        "phase_choose_first": "Choose who plays first this round: {options}",
        "phase_choose_sleeper": "Choose who sleeps next round: {options}",
        "phase_austro_exit": "Austro leaves the grid: choose the side ({options})",
        "must_leave": "A red gem landed on {who}'s card: the first action must be a Fly away.",
        "new_turn": "--- {who}'s turn, {ap} AP ---",
        "new_round": "=== Round {round} of {rounds} ===",
        "storm": "Storm: {storm}; grid card {card} turned {deg} degrees: target {t1}",
        "storm_anchored": "Island {island} is already home at {cell}: a red gem anchors it.",
        "storm_swapped": "The cards at {a} and {b} swap: island {x} is now at {a}, {y} at {b}.",
        "storm_nothing": "Nothing moves ({why}).",
        "storm_nothing_why": "a target is anchored, the targets coincide or no gem is left",
        "legal": "Legal actions (cost in AP):",
        "commands": (
            "Commands: an action in the notation (fly c3, breeze b2 d2, fly #24, end), "
            "? or help, board, undo, undo turn, save FILE, quit"
        ),
        "undone": "Undone: {what}",
        "nothing_to_undo": "Nothing to undo.",
        "nothing_to_undo_turn": "Nothing to undo in this turn.",
        "saved": "Saved to {path}.",
        "save_failed": "Could not save to {path}: {why}",
        "save_usage": "Write: save FILE",
        "bad": "{text}",
        "refused": "Not allowed: {text}",
        "bye": "Game left. Resume a saved game with: zefiria play --resume FILE",
        "eof": "Input ended before the game did.",
        "over": "=== The last round is over ===",
        "score": (
            "Score: {right} right (+{right}), {wrong_in_row} in the right row (-{wrong_in_row}), "
            "{wrong_row} in a wrong row (-{wrong_row2}), red gems +{gems}: {total} VP"
        ),
        "rating": "Rating: {text}",
        "seed": "Seed {seed} (play the same game again with --seed {seed})",
        "outside": "{who} is outside the grid, beside {cell} (island {island}).",
    },
    "it": {
        "round": "Round {round}/{rounds}",
        "setup": "Preparazione",
        "purple": "gemme viola rimaste {n}",
        "turn_of": "tocca a {who}",
        "ap": "{n} PA",
        "gems": "gemme rosse possedute: {held}; riserva {pool}",
        "sleeping": "{who} dorme",
        "phase_setup": "{who}: metti la pedina su un angolo ({options})",
        "phase_choose_first": "Scegli chi gioca per primo in questo round: {options}",
        "phase_choose_sleeper": "Scegli chi dorme nel prossimo round: {options}",
        "phase_austro_exit": "Austro esce dalla griglia: scegli il lato ({options})",
        "must_leave": (
            "Una gemma rossa è sulla carta di {who}: la prima azione deve essere un Volo via."
        ),
        "new_turn": "--- Turno di {who}, {ap} PA ---",
        "new_round": "=== Round {round} di {rounds} ===",
        "storm": "Tempesta: {storm}; carta griglia {card} ruotata di {deg} gradi: bersaglio {t1}",
        "storm_anchored": (
            "L'isola {island} è già al suo posto in {cell}: una gemma rossa la ancora."
        ),
        "storm_swapped": (
            "Le carte in {a} e {b} si scambiano: ora l'isola {x} è in {a}, la {y} in {b}."
        ),
        "storm_nothing": "Non si muove nulla ({why}).",
        "storm_nothing_why": "un bersaglio è ancorato, i bersagli coincidono o non ci sono gemme",
        "legal": "Azioni possibili (costo in PA):",
        "commands": (
            "Comandi: un'azione nella notazione (fly c3, breeze b2 d2, fly #24, end), "
            "? o help, board, undo, undo turn, save FILE, quit"
        ),
        "undone": "Annullato: {what}",
        "nothing_to_undo": "Niente da annullare.",
        "nothing_to_undo_turn": "Niente da annullare in questo turno.",
        "saved": "Salvato in {path}.",
        "save_failed": "Impossibile salvare in {path}: {why}",
        "save_usage": "Scrivi: save FILE",
        "bad": "{text}",
        "refused": "Non consentito: {text}",
        "bye": "Partita lasciata. Riprendi una partita salvata con: zefiria play --resume FILE",
        "eof": "L'input è finito prima della partita.",
        "over": "=== L'ultimo round è finito ===",
        "score": (
            "Punteggio: {right} al posto giusto (+{right}), {wrong_in_row} nella riga giusta "
            "(-{wrong_in_row}), {wrong_row} in una riga sbagliata (-{wrong_row2}), "
            "gemme rosse +{gems}: {total} PV"
        ),
        "rating": "Valutazione: {text}",
        "seed": "Seme {seed} (rigioca la stessa partita con --seed {seed})",
        "outside": "{who} è fuori dalla griglia, accanto a {cell} (isola {island}).",
    },
}


def text(lang: str, key: str, **values: object) -> str:
    """The phrase ``key`` in ``lang`` (English when the language has no such phrase)."""
    table = _TEXTS.get(lang, _TEXTS["en"])
    return table.get(key, _TEXTS["en"][key]).format(**values)
