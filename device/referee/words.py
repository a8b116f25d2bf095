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
        "which_island": "Card {where}: which island?",
        "which_corner": "Can't see {name}'s pawn: which corner?",
        "unsure": "cards not read for sure at {where}: straighten them",
        "checking": "looking again before refusing that move",
        "pawn_unseen": "cannot see the pawn of {names}: set it upright in the middle of its card",
        "pawn_ask": (
            "Can't see {name}'s pawn: is it on its card ({island})? OK: yes. Undo: undo. "
            "Hint: elsewhere"
        ),
        "pawn_ask_beside": (
            "Can't see {name}'s pawn: is it beside card {island}? OK: yes. Undo: undo. "
            "Hint: elsewhere"
        ),
        "pawn_where": "Where is {name}'s pawn?",
        "place_beside": "beside {where} ({island})",
        "pawns_ask": "Can't see the pawns of {names}: are they on their cards? OK: yes. Undo: undo",
        "gem_taken_ask": "Red gem of card {islands} taken? OK: yes. Undo: no, it is still there",
        "gem_there_ask": "A red gem on card {islands}? OK: no. Undo: yes, there is one",
        "cards_ask": "Can't read the cards in {where}: straighten them. OK: they did not move",
        "game_over": "the game is over",
        "bad_layout": "this layout cannot start a game: {why}",
        "on_a_corner": "{who} must stand on a corner card",
        "not_a_corner": "{who} stands on {where}, not on a corner",
        "another_corner": "{who} goes on another corner",
        "pawns_wanted": "waiting for the pawns on the corners",
        "pawns_placed": "pawns placed",
        "undone": "undone: {what}",
        "undone_turn": "undone: {n} actions of {who}'s turn",
        "storm_anchor": "anchor {island}",
        "storm_swap": "swap {a} and {b}",
        "storm_none": "no effect",
        "game_over_title": "Game over",
        "scoring": "scoring...",
        "choose": "Choose",
        "fly_away": "must fly away first",
        "outside_by": "outside by {cell}",
        "cal_title": "Calibrate {n}/2",
        "cal_solved": "Cards 1-25 in order, 1 top left as the camera sees it, no pawns. Then OK",
        "cal_solved_long": (
            "lay the 25 cards out in order 1..25 in rows of five, island 1 at the top left "
            "of the camera's image, no pawns and no gems on them, then press OK"
        ),
        "cal_pawns": "Borea on card 1, Jugo 2, Etesia 3, Skyron 4, Austro 5. Then OK (Undo: back)",
        "cal_pawns_long": (
            "leave the cards as they are and put each pawn on its card: Borea on 1, Jugo on 2, "
            "Etesia on 3, Skyron on 4, Austro on 5, then press OK (Undo: retake the first photo)"
        ),
        "cal_working_title": "Calibrating",
        "cal_working": "learning the cards and the pawns: do not touch the table",
        "cal_refused_title": "Not calibrated",
        "cal_retry": "OK: take the photos again",
        "cal_done_title": "Calibrated",
        "cal_done": "the camera knows your cards and pawns",
        "cal_menu": "Calibrate the camera",
        "cal_needed": "no usable camera profile",
        "unplug": "safe to unplug when the green light is off",
        "cal_put_back": "calibrated: put the game's cards and pawns back as they were",
        "cal_cancelled": "calibration cancelled: the old profile stays",
        "camera_moved": "the camera moved: put it back as it was, or hold OK: Calibrate the camera",
        "blurred": "the photo is blurred: wipe the camera's lens or check its focus",
        "view_lost": "the camera sees no table: is its lens covered, or its cable loose?",
        "washed_out": "the photo is all white: turn the lamp away from the camera's lens",
        "hand_stays": (
            "No hand on the cards? Then the camera moved: put it back or hold OK: Calibrate"
        ),
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
        "which_island": "Carta {where}: quale isola?",
        "which_corner": "Non vedo la pedina di {name}: quale angolo?",
        "unsure": "carte non lette con certezza in {where}: raddrizzatele",
        "checking": "guardo di nuovo prima di rifiutare la mossa",
        "pawn_unseen": "non vedo la pedina di {names}: mettetela dritta al centro della carta",
        "pawn_ask": (
            "Non vedo la pedina di {name}: è sulla sua carta ({island})? OK: sì. Annulla: annulla. "
            "Suggerimento: altrove"
        ),
        "pawn_ask_beside": (
            "Non vedo la pedina di {name}: è accanto alla carta {island}? OK: sì. "
            "Annulla: annulla. Suggerimento: altrove"
        ),
        "pawn_where": "Dov'è la pedina di {name}?",
        "place_beside": "accanto a {where} ({island})",
        "pawns_ask": "Non vedo le pedine di {names}: sono sulle carte? OK: sì. Annulla: annulla",
        "gem_taken_ask": (
            "Presa la gemma rossa della carta {islands}? OK: sì. Annulla: no, è ancora lì"
        ),
        "gem_there_ask": "Una gemma rossa sulla carta {islands}? OK: no. Annulla: sì, c'è",
        "cards_ask": "Non leggo le carte in {where}: raddrizzatele. OK: non sono state mosse",
        "game_over": "la partita è finita",
        "bad_layout": "questa griglia non può iniziare una partita: {why}",
        "on_a_corner": "{who} deve stare su una carta d'angolo",
        "not_a_corner": "{who} è in {where}, non su un angolo",
        "another_corner": "{who} va su un altro angolo",
        "pawns_wanted": "aspetto le pedine sugli angoli",
        "pawns_placed": "pedine piazzate",
        "undone": "annullato: {what}",
        "undone_turn": "annullate {n} azioni del turno di {who}",
        "storm_anchor": "ancora {island}",
        "storm_swap": "scambia {a} e {b}",
        "storm_none": "nessun effetto",
        "game_over_title": "Partita finita",
        "scoring": "calcolo il punteggio...",
        "choose": "Scegliete",
        "fly_away": "prima deve volare via",
        "outside_by": "fuori accanto a {cell}",
        "cal_title": "Calibra {n}/2",
        "cal_solved": "Carte 1-25 in ordine, la 1 in alto a sinistra, senza pedine. Poi OK",
        "cal_solved_long": (
            "disponete le 25 carte in ordine 1..25 a righe di cinque, l'isola 1 in alto a "
            "sinistra nell'immagine della fotocamera, senza pedine né gemme, poi premete OK"
        ),
        "cal_pawns": "Borea sulla carta 1, Jugo 2, Etesia 3, Skyron 4, Austro 5. Poi OK",
        "cal_pawns_long": (
            "lasciate le carte come sono e mettete ogni pedina sulla sua carta: Borea sulla 1, "
            "Jugo sulla 2, Etesia sulla 3, Skyron sulla 4, Austro sulla 5, poi premete OK "
            "(Annulla: rifate la prima foto)"
        ),
        "cal_working_title": "Calibrazione",
        "cal_working": "imparo le carte e le pedine: non toccate il tavolo",
        "cal_refused_title": "Non calibrato",
        "cal_retry": "OK: rifate le foto",
        "cal_done_title": "Calibrato",
        "cal_done": "la fotocamera conosce le vostre carte e pedine",
        "cal_menu": "Calibra la fotocamera",
        "cal_needed": "nessun profilo della fotocamera utilizzabile",
        "unplug": "si può staccare la spina quando la luce verde è spenta",
        "cal_put_back": "calibrato: rimettete carte e pedine della partita come erano",
        "cal_cancelled": "calibrazione annullata: resta il profilo di prima",
        "blurred": "la foto è sfocata: pulite l'obiettivo della fotocamera o regolatene il fuoco",
        "view_lost": "la fotocamera non vede il tavolo: obiettivo coperto, o cavo staccato?",
        "washed_out": "la foto è tutta bianca: allontanate la luce dall'obiettivo della fotocamera",
        "camera_moved": (
            "la fotocamera si è spostata: rimettetela com'era, o tenete OK: Calibra la fotocamera"
        ),
        "hand_stays": (
            "Nessuna mano sulle carte? Fotocamera spostata: rimettetela o tenete OK: Calibra"
        ),
    },
}


def word(lang: str, key: str, **values: object) -> str:
    """The text for ``key`` in ``lang`` (English when the language is unknown)."""
    text = WORDS.get(lang, WORDS["en"])[key]
    return text.format(**values) if values else text
