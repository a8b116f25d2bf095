"""The engine's refusals and put-back instructions in the players' language.

The engine speaks English; its refusals also come as data (:class:`~zefiria.engine.errors.
Wording`: a sentence key and its values) and the differences between the table and the game
are data already, so the device says them itself. English is the engine's own text,
unchanged; Italian is built here. A key this table does not know yet (a newer engine) falls
back to the engine's English rather than to nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from zefiria.engine.differences import (
    CardDifference,
    Difference,
    GemDifference,
    PawnDifference,
    StormCheck,
    describe_differences,
    pure_swaps,
)
from zefiria.engine.errors import Value, Wording
from zefiria.engine.explain import Verdict
from zefiria.engine.grid import Cell
from zefiria.engine.notation import format_cell
from zefiria.engine.state import GameState, StormEffect
from zefiria.engine.storm import swap_cards

# The deck's default colour and icon names (a card is "una carta": feminine adjectives).
_COLOURS = {"green": "verde", "yellow": "gialla", "orange": "arancione", "blue": "blu"}
_COLOURS |= {"pink": "rosa"}
_ICONS = {"wave": "onda", "feather": "piuma", "snowflake": "fiocco di neve", "sun": "sole"}
_ICONS |= {"dragon": "drago"}
_ACTIONS = {
    "place": "mettere una pedina",
    "leave": "scegliere l'uscita di Austro",
    "fly": "un Volo",
    "breeze": "uno scambio",
    "retrieve": "recuperare una gemma",
    "spend": "spendere una gemma",
    "endturn": "finire il turno",
    "choosefirst": "scegliere chi gioca per primo",
    "choosesleeper": "scegliere chi dorme",
}
_NEED = {
    "setup": "{spirit} deve prima mettere la pedina su un angolo",
    "austro_exit": "Austro deve prima scegliere da che lato uscire dalla griglia",
    "choose_first": "scegliete prima chi gioca per primo in questo round",
    "choose_sleeper": "scegliete prima chi dorme nel prossimo round",
    "turn": "è il turno di {spirit}",
}
_SIDE = {"on": "sulla", "beside": "accanto alla"}
_BLOCK = {"anchored": "ancorata", "occupied": "occupata"}

IT: dict[str, str] = {
    "game_over": "la partita è finita: niente più azioni",
    "wrong_phase": "{action} non è possibile ora: {need}",
    "off_grid": "{cell} non è una casella della griglia 5x5",
    "not_a_corner": "la pedina di {spirit} deve partire da una carta d'angolo",
    "corner_occupied": "la carta d'angolo {island} ha già una pedina",
    "not_opposite_corner": (
        "in 2 giocatori le pedine stanno su angoli opposti: {spirit} deve partire dalla "
        "carta {island}"
    ),
    "not_first": "{spirit} non può giocare per primo in questo round: scegliete {options}",
    "not_sleeper": (
        "{spirit} non può dormire: scegliete {options}, che hanno giocato in questo round"
    ),
    "leave_side": (
        "Austro lascia la carta {island} verso il lato più vicino della griglia: accanto "
        "alla carta {options}"
    ),
    "not_storm_mode": "le gemme rosse si usano solo nel modo Storm",
    "not_playing": "{spirit} non gioca in questa partita",
    "no_gem_to_spend": "{spirit} non ha gemme rosse da spendere",
    "must_leave_first": (
        "una gemma ancora la carta {island} sotto {spirit}: la sua prima azione deve essere "
        "un Volo via da lì"
    ),
    "austro_end_not_free": (
        "Austro deve finire il turno sulla carta accanto a lui, e la carta {island} è "
        "{block}: vola prima accanto a una carta libera"
    ),
    "not_enough_ap": "{action} costa {cost} PA e a {spirit} restano {ap} PA",
    "fly_same_cell": "{spirit} è già {side} carta {island}",
    "not_edge": "Austro vola intorno alla griglia: la carta {island} non è sul bordo",
    "fly_blocked": "{spirit} non può volare {side} carta {island}: {blocked}",
    "fly_colour": (
        "Borea vola su una carta adiacente o su una carta del colore della sua ({colour}); "
        "la carta {island} è {its}"
    ),
    "fly_icon": (
        "Jugo vola su una carta adiacente o su una carta con l'icona della sua ({icon}); "
        "la carta {island} ha: {its}"
    ),
    "fly_diagonal": (
        "Etesia vola su una carta adiacente o lungo una diagonale; la carta {island} non è "
        "su nessuna delle due"
    ),
    "fly_over": "Etesia non può volare sopra la carta {at} fino alla carta {island}: {blocked}",
    "fly_adjacent": (
        "{spirit} vola solo su una carta adiacente in orizzontale o in verticale; la carta "
        "{island} non è accanto alla carta {here}"
    ),
    "no_gem_here": "non c'è una gemma rossa sulla carta {island}",
    "austro_stranded": (
        "dopo questo Austro non avrebbe PA per volare accanto a una carta libera, e non può "
        "atterrare sulla carta {island}"
    ),
    "breeze_same_cell": "uno scambio scambia due carte diverse",
    "skyron_own_card": (
        "lo scambio di Skyron scambia la sua carta ({here}) con un'altra; né la carta {a} "
        "né la carta {b} è la sua"
    ),
    "skyron_stand": (
        "dopo lo scambio Skyron sta su una delle due carte scambiate ({a} o {b}): dite quale"
    ),
    "skyron_anchored": "la carta {here} di Skyron è ancorata da una gemma rossa e non si muove",
    "skyron_blocked": "Skyron non può scambiare con la carta {island}: {blocked}",
    "stand_not_skyron": "solo Skyron sceglie dove stare dopo uno scambio, non {spirit}",
    "breeze_blocked": "{spirit} non può scambiare la carta {island}: {blocked}",
    "breeze_icon": (
        "Borea può scambiare solo una carta con l'icona della sua ({icon}); la carta {a} "
        "ha: {a_is} e la carta {b} ha: {b_is}"
    ),
    "breeze_colour": (
        "Jugo può scambiare solo una carta del colore della sua ({colour}); la carta {a} è "
        "{a_is} e la carta {b} è {b_is}"
    ),
    "breeze_adjacent": (
        "Etesia può scambiare solo una carta adiacente a lei (sulla carta {here}); né la "
        "carta {a} né la carta {b} lo è"
    ),
    "breeze_cross": (
        "Austro, accanto alla carta {here}, può scambiare solo carte della sua riga o "
        "colonna; la carta {island} non è in nessuna delle due"
    ),
    "breeze_no_path": (
        "la carta {a} non può raggiungere la carta {b}{cross}: ogni percorso sorvola una "
        "carta occupata o ancorata"
    ),
    "change_costs": "questa modifica costa {cost} PA e ne restavano solo {budget}",
}


def say_refusal(wording: Wording | None, english: str, lang: str) -> str:
    """A refusal in ``lang``: Italian from ``wording``, else the engine's ``english``."""
    if lang != "it" or wording is None or wording.key not in IT:
        return english
    values = {name: _italian(name, value) for name, value in wording.values}
    if wording.key == "wrong_phase":
        values["need"] = _NEED.get(str(wording.get("need")), "").format(**values)
    if "block" in values:
        values["blocked"] = _blocked(wording.as_dict())
    text = IT[wording.key].format(**values)
    return text[0].upper() + text[1:]


def _italian(name: str, value: Value) -> str:
    if isinstance(value, tuple):
        glue = " o alla carta " if name == "options" and value[:1] and value[0].isdigit() else " o "
        return glue.join(value)
    text = str(value)
    if name in ("colour", "its", "a_is", "b_is"):
        text = _COLOURS.get(text, _ICONS.get(text, text))
    elif name == "icon":
        text = _ICONS.get(text, text)
    elif name == "action":
        text = _ACTIONS.get(text, text)
    elif name == "side":
        text = _SIDE.get(text, text)
    elif name == "block":
        text = _BLOCK.get(text, text)
    elif name == "cross":
        text = " dentro la sua croce" if text else ""
    return text


def _blocked(values: dict[str, Value]) -> str:
    if values.get("block") == "anchored":
        return f"la carta {values['at']} è ancorata da una gemma rossa"
    return f"la carta {values['at']} è occupata da {values['by']}"


def say_differences(diffs: Sequence[Difference], state: GameState, lang: str) -> str:
    """What the players must change on the table, in ``lang`` (empty when nothing)."""
    if lang != "it":
        return describe_differences(diffs, state)
    parts: list[str] = []
    cards = [d for d in diffs if isinstance(d, CardDifference)]
    if cards:
        words = [f"la carta {d.expected} va in {format_cell(d.cell)}" for d in cards[:1]]
        words += [f"la carta {d.expected} in {format_cell(d.cell)}" for d in cards[1:]]
        text = ", ".join(words)
        if pure_swaps(cards):
            text += " (scambiatele di nuovo)" if len(cards) == 2 else " (ogni coppia di nuovo)"
        parts.append(text)
    for d in diffs:
        if isinstance(d, PawnDifference):
            if d.expected is None:
                parts.append(f"{d.spirit.title} non gioca: togliete la sua pedina dal tavolo")
            else:
                side = "accanto alla" if d.expected.outside else "sulla"
                where = _place(d.expected.cell, state)
                parts.append(f"la pedina di {d.spirit.title} va {side} {where}")
        elif isinstance(d, GemDifference):
            if d.expected:
                parts.append(f"ci vuole una gemma rossa sulla {_place(d.cell, state)}")
            else:
                parts.append(f"la {_place(d.cell, state)} non deve avere una gemma rossa")
    return "; ".join(parts)


def _place(cell: Cell, state: GameState) -> str:
    return f"carta {state.island_at(cell)} ({format_cell(cell)})"


def say_storm(check: StormCheck, state: GameState, lang: str) -> str:
    """The storm check's message in ``lang``: what the storm asks, or what differs."""
    if lang != "it":
        return check.message
    event = state.last_storm
    if check.kind == "done":
        return "il tavolo corrisponde alla tempesta"
    if check.kind == "pending" and event is not None:
        t1 = event.target1
        if event.effect is StormEffect.SWAPPED and event.target2 is not None:
            t2 = event.target2
            before = swap_cards(state, t1, t2)
            return (
                f"la tempesta scambia le carte {before.island_at(t1)} ({format_cell(t1)}) e "
                f"{before.island_at(t2)} ({format_cell(t2)}): scambiatele, pedine con le carte"
            )
        if event.effect is StormEffect.ANCHORED:
            return (
                f"la tempesta ancora la carta {state.island_at(t1)} ({format_cell(t1)}): "
                "metteteci una gemma rossa"
            )
    return say_differences(check.differences, state, lang) or "tavolo a posto"


def say_verdict(verdict: Verdict, state: GameState, lang: str) -> str:
    """An illegal verdict's sentence in ``lang``: the rule broken, then what to put back."""
    if lang != "it":
        return verdict.message
    why = say_refusal(verdict.wording, "", lang)
    # The engine names places on the nearest legal table, as the players should leave it.
    table = verdict.nearest.state if verdict.nearest is not None else state
    what = say_differences(verdict.differences, table, lang)
    return f"{why}: {what}" if why and what else why or what
