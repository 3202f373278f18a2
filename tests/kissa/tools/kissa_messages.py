"""Every 2kissa10 message in French and English; writes the two kissa.po catalogs.

    .venv/bin/python tests/kissa/tools/kissa_messages.py

Each entry: id, translator comment, French, English, and optional terse / verbose forms
(fr, en). A form given as a pair (singular, plural) is a plural message counted by {n}.
"""

from __future__ import annotations

from pathlib import Path

M: list[tuple] = []


def m(mid, comment, fr, en, terse=None, verbose=None):
    M.append((mid, comment, fr, en, terse, verbose))


# --- numbers, directions, equations ----------------------------------------------------
m("kissa.num_at", "A one-cell number and where it is. {value}: the number; {cell}: its cell, like E5.",
  "{value} en {cell}", "{value} at {cell}")
m("kissa.num_dir", "A number, the cell of its first digit and its reading direction. {dir}: kissa.dir.*.",
  "{value} en {cell} {dir}", "{value} at {cell} {dir}",
  terse=("{value} en {cell}", "{value} at {cell}"))
for key, fr, en in [
    ("right", "vers la droite", "right"), ("down", "vers le bas", "down"),
    ("left", "vers la gauche", "left"), ("up", "vers le haut", "up"),
    ("down_right", "en diagonale vers le bas à droite", "diagonally down right"),
    ("down_left", "en diagonale vers le bas à gauche", "diagonally down left"),
    ("up_right", "en diagonale vers le haut à droite", "diagonally up right"),
    ("up_left", "en diagonale vers le haut à gauche", "diagonally up left"),
]:
    m(f"kissa.dir.{key}", f"The reading direction of a number: {en} (from its first digit).", fr, en)
m("kissa.eq_plus", "An addition as said. {a}, {b}, {c}: numbers, maybe with where they are.",
  "{a} plus {b} égale {c}", "{a} plus {b} equals {c}")
m("kissa.eq_times", "A multiplication as said. {a}, {b}, {c}: numbers, maybe with where they are.",
  "{a} fois {b} égale {c}", "{a} times {b} equals {c}")
m("kissa.op_plus", "The word for the addition, in a sentence.", "addition", "addition")
m("kissa.op_times", "The word for the multiplication, in a sentence.", "multiplication", "multiplication")
m("kissa.empty", "An empty cell, said in a row or column reading.", "vide", "empty")
m("kissa.role.a", "The first of the two numbers added or multiplied.", "le premier nombre", "the first number")
m("kissa.role.b", "The second of the two numbers added or multiplied.", "le deuxième nombre", "the second number")
m("kissa.role.c", "The result of the addition or multiplication.", "le résultat", "the result")

# --- events --------------------------------------------------------------------------------
m("kissa.board_dealt", "The companion has filled the board from the bag (100 tokens).",
  "Le plateau est rempli : cent jetons, dix de chaque chiffre. Dis « ligne 1 » ou « colonne A » pour le lire.",
  "The board is filled: a hundred tokens, ten of each digit. Say \"row 1\" or \"column A\" to read it.",
  terse=("Plateau rempli.", "Board filled."),
  verbose=("Le plateau est rempli dans l'ordre du tirage, ligne par ligne : cent jetons, dix de chaque chiffre. Les colonnes vont de A à J, de gauche à droite, et les lignes de 1 à 10, de haut en bas. Dis « ligne 1 » ou « colonne A » pour le lire.",
           "The board is filled in draw order, row by row: a hundred tokens, ten of each digit. Columns go from A to J, left to right, and rows from 1 to 10, top to bottom. Say \"row 1\" or \"column A\" to read it."))
m("kissa.order_drawn", "The playing order was drawn at random. {player}: who plays first.",
  "Tirage de l'ordre : {player} commence.", "The order is drawn: {player} starts.",
  terse=("{player} commence.", "{player} starts."))
m("kissa.entry_started", "Physical table: the players now enter their own board, row by row.",
  "Saisie de votre plateau. Dicte la ligne 1 : dix chiffres, « vide » pour une case vide. Par exemple : « ligne 1 : 5 3 6 5 0 2 3 0 1 8 ».",
  "Enter your board. Say row 1: ten digits, \"empty\" for an empty cell. For example: \"row 1: 5 3 6 5 0 2 3 0 1 8\".",
  terse=("Saisie du plateau : ligne 1 ?", "Board entry: row 1?"))
m("kissa.row_entered", "A row of the physical board, read back. {row}: its number; {digits}: its ten cells.",
  "Ligne {row} : {digits}.", "Row {row}: {digits}.")
m("kissa.rows_missing", "Rows of the physical board still to enter. {rows}: their numbers.",
  ("Reste la ligne {rows}.", "Restent les lignes {rows}."), ("Row {rows} is left.", "Rows {rows} are left."),
  terse=(("Reste {rows}.", "Restent {rows}."), ("Left: {rows}.", "Left: {rows}.")))
m("kissa.rows_complete", "Every row of the physical board is entered.",
  "Toutes les lignes sont saisies. Corrige une ligne en la redictant, ou dis « commencer ».",
  "Every row is entered. Correct a row by saying it again, or say \"start\".",
  terse=("Plateau complet. « commencer » ?", "Board complete. \"start\"?"))
m("kissa.play_started", "The physical board is confirmed. {n}: tokens on it; {player}: who plays first.",
  ("Plateau prêt, {n} jeton. {player} commence.", "Plateau prêt, {n} jetons. {player} commence."),
  ("Board ready, {n} token. {player} starts.", "Board ready, {n} tokens. {player} starts."))
m("kissa.digit_count", "How many times a digit is on the board. {digit}: the digit; {n}: the count.",
  ("{n} fois le {digit}", "{n} fois le {digit}"), ("{digit} {n} time", "{digit} {n} times"))
m("kissa.unusual_counts", "Warning: a real board has ten of each digit. {counts}: the digits that differ.",
  "Attention, un vrai plateau a dix jetons de chaque chiffre ; ici : {counts}. Vérifiez la saisie.",
  "Careful, a real board has ten of each digit; here: {counts}. Check the entry.")
m("kissa.move_played", "A move. {player}: who played; {equation}: the three numbers with where they were.",
  "{player} : {equation}.", "{player}: {equation}.")
m("kissa.scored", "Score of an addition. {n}: points; {total}: the player's total; {left}: tokens left.",
  ("{n} point, total {total}. Reste {left} jetons.", "{n} points, total {total}. Reste {left} jetons."),
  ("{n} point, total {total}. {left} tokens left.", "{n} points, total {total}. {left} tokens left."),
  terse=(("{n} point.", "{n} points."), ("{n} point.", "{n} points.")))
m("kissa.scored_product", "Score of a multiplication (doubled). {base}: the token sum; {n}: points; {total}; {left}: tokens left.",
  ("Multiplication, doublée : {n} point, total {total}. Reste {left} jetons.", "Multiplication, {base} doublé : {n} points, total {total}. Reste {left} jetons."),
  ("Multiplication, doubled: {n} point, total {total}. {left} tokens left.", "Multiplication, {base} doubled: {n} points, total {total}. {left} tokens left."),
  terse=(("{n} point, doublé.", "{n} points, doublé."), ("{n} point, doubled.", "{n} points, doubled.")))
m("kissa.scored_cleared", "The move emptied the board: its score is doubled again. {n}: points; {total}.",
  ("Plateau vidé : coup doublé, {n} point. Total {total}.", "Plateau vidé : coup doublé, {n} points. Total {total}."),
  ("Board cleared: the move counts double, {n} point. Total {total}.", "Board cleared: the move counts double, {n} points. Total {total}."))
m("kissa.stuck", "The player to move finds no solution; the tokens left count twice against {penalised}. {tokens}: tokens; {remaining}: their value; {penalty}: points lost; {total}: new total.",
  ("Plus aucune solution pour {player}. Il reste {tokens} jeton, valeur {remaining}, doublée : {penalised} perd {penalty} points, total {total}.",
   "Plus aucune solution pour {player}. Il reste {tokens} jetons, valeur {remaining}, doublée : {penalised} perd {penalty} points, total {total}."),
  ("No solution left for {player}. {tokens} token is left, worth {remaining}, doubled: {penalised} loses {penalty} points, total {total}.",
   "No solution left for {player}. {tokens} tokens are left, worth {remaining}, doubled: {penalised} loses {penalty} points, total {total}."),
  terse=(("Bloqué : {penalised} moins {penalty}.", "Bloqué : {penalised} moins {penalty}."), ("Stuck: {penalised} minus {penalty}.", "Stuck: {penalised} minus {penalty}.")))
m("kissa.declared", "At a physical table, {player} declares no solution; {penalised} loses the doubled value of the {tokens} tokens left.",
  ("{player} déclare ne trouver aucune solution. Il reste {tokens} jeton, valeur {remaining}, doublée : {penalised} perd {penalty} points, total {total}.",
   "{player} déclare ne trouver aucune solution. Il reste {tokens} jetons, valeur {remaining}, doublée : {penalised} perd {penalty} points, total {total}."),
  ("{player} declares no solution. {tokens} token is left, worth {remaining}, doubled: {penalised} loses {penalty} points, total {total}.",
   "{player} declares no solution. {tokens} tokens are left, worth {remaining}, doubled: {penalised} loses {penalty} points, total {total}."))
m("kissa.player_score", "One player's score in a list. {player}: name; {n}: points (may be negative).",
  "{player} {n}", "{player} {n}")
m("kissa.reason.board_cleared", "Why the game ended: the board is empty.", "le plateau est vide", "the board is empty")
m("kissa.reason.stuck", "Why the game ended: no solution left.", "plus de solution", "no solution left")
m("kissa.reason.declared", "Why the game ended: a player declared no solution.", "solution introuvable déclarée", "no solution declared")
m("kissa.winner", "The winner. {player}: name.", "{player} gagne !", "{player} wins!")
m("kissa.tie", "Several players share the win. {players}: their names.", "Égalité : {players} gagnent ensemble.", "A tie: {players} share the win.")
m("kissa.game_ended", "The end of the game. {reason}: why; {scores}: every score; {result}: who won.",
  "Fin de la partie, {reason}. Scores : {scores}. {result}", "Game over, {reason}. Scores: {scores}. {result}",
  terse=("Fin. {scores}. {result}", "Game over. {scores}. {result}"))

# --- commands ----------------------------------------------------------------------------
m("kissa.say_which_row", "Board entry: the row number is needed because every row is already entered.",
  "Toutes les lignes sont saisies : dis laquelle corriger, par exemple « ligne 3 : 1 2 3 4 5 6 7 8 9 0 ».",
  "Every row is entered: say which one to correct, for example \"row 3: 1 2 3 4 5 6 7 8 9 0\".")
m("kissa.row_length", "Board entry: a row must have ten cells. {n}: cells heard; {row}: the row.",
  ("Ligne {row} : j'entends {n} case, il en faut dix. Redis-la.", "Ligne {row} : j'entends {n} cases, il en faut dix. Redis-la."),
  ("Row {row}: I hear {n} cell, ten are needed. Say it again.", "Row {row}: I hear {n} cells, ten are needed. Say it again."))
m("kissa.no_such_row", "A row or column that does not exist.", "Les lignes vont de 1 à 10, les colonnes de A à J.", "Rows go from 1 to 10, columns from A to J.")
m("kissa.row_name", "The name of a row, before its reading. {n}: 1 to 10.", "Ligne {n}", "Row {n}")
m("kissa.col_name", "The name of a column, before its reading. {col}: A to J.", "Colonne {col}", "Column {col}")
m("kissa.style_whole", "From now on, rows and columns are read as whole numbers.",
  "D'accord : je lis les lignes en nombres entiers.", "All right: I read rows as whole numbers.")
m("kissa.style_digits", "From now on, rows and columns are read digit by digit.",
  "D'accord : je lis les lignes chiffre par chiffre.", "All right: I read rows digit by digit.")
m("kissa.say_a_cell", "A reading needs a cell.", "Quelle case ? Par exemple « autour de E5 ».", "Which cell? For example \"around E5\".")
m("kissa.tokens_left", "How many tokens are left, and their value (0 counts 10). {n}: tokens; {value}: points.",
  ("Il reste {n} jeton, valeur {value}.", "Il reste {n} jetons, valeur {value}."),
  ("{n} token left, worth {value}.", "{n} tokens left, worth {value}."),
  terse=(("{n} jeton.", "{n} jetons."), ("{n} token.", "{n} tokens.")))
m("kissa.no_such_number", "A number that is not on the board as said. {number}: the number, maybe with a cell.",
  "Je ne trouve pas {number} sur le plateau.", "I cannot find {number} on the board.")
m("kissa.which_number", "A number is on the board several times. {value}: the number; {n}: how many; {places}: the choices.",
  ("Quel {value} ? {places}.", "Quel {value} ? Il y en a {n} : {places}. Dis la case, le choix, ou « peu importe »."),
  ("Which {value}? {places}.", "Which {value}? There are {n}: {places}. Say the cell, the option, or \"any\"."),
  terse=(("{value} ? {places}.", "{value} ? {places}."), ("{value}? {places}.", "{value}? {places}.")))
m("kissa.option", "One choice in a list. {k}: its number; {where}: the number and where it is.",
  "choix {k} : {where}", "option {k}: {where}")
m("kissa.move_dropped", "The player gave up the move being asked about.",
  "D'accord, on oublie ce coup.", "All right, that move is dropped.")
m("kissa.confirm_move", "A move read back before it is played. {equation}: the move; {n}: its score.",
  ("{equation} : {n} point. On joue ?", "{equation} : {n} points. On joue ?"),
  ("{equation}: {n} point. Play it?", "{equation}: {n} points. Play it?"))
m("kissa.confirm_upgraded", "The move holds as a sum and as a product; the product, worth more, is read back (RULES TA-5). {equation}; {n}: score.",
  ("Aussi juste en multiplication : {equation}, {n} point. On joue ?", "Aussi juste en multiplication : {equation}, {n} points. On joue ?"),
  ("Also right as a multiplication: {equation}, {n} point. Play it?", "Also right as a multiplication: {equation}, {n} points. Play it?"))
m("kissa.confirm_declare", "Physical table: read back before declaring no solution. {n}: the points the player will lose.",
  ("Tu déclares ne trouver aucune solution : tu perds {n} point et la partie s'arrête. Confirmer ?", "Tu déclares ne trouver aucune solution : tu perds {n} points et la partie s'arrête. Confirmer ?"),
  ("You declare you find no solution: you lose {n} point and the game ends. Confirm?", "You declare you find no solution: you lose {n} points and the game ends. Confirm?"))
m("kissa.no_hint_now", "Hints and move counts exist only while the game is being played.",
  "Pas d'indice pour l'instant : la partie n'est pas en cours.", "No hint now: the game is not being played.")
m("kissa.no_move", "There is no legal move on this board.", "Il n'y a aucun coup possible.", "There is no legal move.")
m("kissa.hint_cell", "First hint: a cell used by the best move. {cell}: the cell.",
  "Indice : il y a un bon coup qui utilise la case {cell}.", "Hint: there is a good move using cell {cell}.")
m("kissa.hint_result", "Second hint: the result of the best move. {value}; {op}: addition or multiplication.",
  "Indice : une {op} dont le résultat est {value}.", "Hint: a {op} whose result is {value}.")
m("kissa.hint_move", "The best move, in full. {equation}: the move; {n}: its score.",
  ("Meilleur coup : {equation}, {n} point.", "Meilleur coup : {equation}, {n} points."),
  ("Best move: {equation}, {n} point.", "Best move: {equation}, {n} points."))
m("kissa.move_count", "How many legal moves there are. {n}: the count; {best}: the best score.",
  ("Il y a {n} coup possible ; le meilleur vaut {best} points.", "Il y a {n} coups possibles ; le meilleur vaut {best} points."),
  ("There is {n} legal move; the best is worth {best} points.", "There are {n} legal moves; the best is worth {best} points."))
m("kissa.line_digits", "A row or column read digit by digit. {line}: its name; {items}: the ten cells.",
  "{line} : {items}.", "{line}: {items}.")
m("kissa.line_whole", "A row or column read as whole numbers. {line}: its name; {items}: numbers and gaps.",
  "{line} : {items}.", "{line}: {items}.")
m("kissa.run_one", "A single digit in a reading by whole numbers. {value}; {cell}.", "{value} en {cell}", "{value} at {cell}")
m("kissa.run_many", "Contiguous digits read as one number. {value}: the digits; {first}, {last}: cells.",
  "{value} de {first} à {last}", "{value} from {first} to {last}")
m("kissa.gap_one", "An empty cell in a reading by whole numbers. {cell}.", "{cell} vide", "{cell} empty")
m("kissa.gap_many", "Empty cells in a reading by whole numbers. {first}, {last}: cells; {n}: how many.",
  ("vide de {first} à {last}", "vide de {first} à {last}"), ("empty from {first} to {last}", "empty from {first} to {last}"))
m("kissa.cell_is", "What is on a cell. {cell}: like E5; {what}: a digit or the word empty.", "{cell} : {what}.", "{cell}: {what}.")
m("kissa.cell_short", "A cell in the list of a neighbourhood. {cell}; {what}.", "{cell} {what}", "{cell} {what}")
m("kissa.around", "The eight neighbours of a cell. {cell}; {what}: its own content; {items}: the neighbours.",
  "{cell} : {what}. Autour : {items}.", "{cell}: {what}. Around it: {items}.")
m("kissa.digit_nowhere", "A digit that is no longer on the board. {digit}.", "Il n'y a plus de {digit} sur le plateau.", "There is no {digit} left on the board.")
m("kissa.digit_where", "Where a digit is. {digit}; {n}: how many; {cells}: their cells.",
  ("Un seul {digit}, en {cells}.", "{n} fois le {digit} : {cells}."), ("One {digit}, at {cells}.", "{n} {digit}s: {cells}."))
m("kissa.help_entry", "Help while the physical board is entered.",
  "Dicte une ligne : « ligne 1 : 5 3 6 5 0 2 3 0 1 8 », « vide » pour une case vide. Redicte une ligne pour la corriger ; « ligne 1 » la relit. Quand tout est juste, dis « commencer », ou « commencer, Anne commence ».",
  "Say a row: \"row 1: 5 3 6 5 0 2 3 0 1 8\", \"empty\" for an empty cell. Say a row again to correct it; \"row 1\" reads it back. When all is right, say \"start\", or \"start, Anne begins\".")
m("kissa.help_move", "Help on your turn: how to play a move.",
  "Annonce trois nombres : « 10 en A1 plus 29 en C4 vers le bas égale 39 en E2 », ou « 10 plus 29 égale 39 » si ces nombres ne sont qu'à un endroit. « fois » pour une multiplication, doublée.",
  "Name three numbers: \"10 at A1 plus 29 at C4 down equals 39 at E2\", or \"10 plus 29 equals 39\" when each is in one place only. \"times\" for a multiplication, which counts double.")
m("kissa.help_declare", "Help at a physical table: declaring no solution.",
  "Si tu ne trouves rien, dis « pas de solution » : tu perds le double des jetons restants.",
  "If you find nothing, say \"no solution\": you lose twice the value of the tokens left.")
m("kissa.help_wait", "Help when it is someone else's turn. {player}: whose turn.",
  "C'est à {player} de jouer.", "It is {player}'s turn.")
m("kissa.help_read", "Help: the readings of the board.",
  "Pour lire : « ligne 3 », « colonne C », « E5 », « autour de E5 », « où sont les 7 », « jetons », « plateau » ; « en nombres » ou « chiffre par chiffre ». Aide au jeu : « indice », « coups », « solution ».",
  "To read: \"row 3\", \"column C\", \"E5\", \"around E5\", \"where are the 7s\", \"tokens\", \"board\"; \"as numbers\" or \"digit by digit\". Help: \"hint\", \"moves\", \"solution\".")
m("kissa.status_entry", "Where the game stands during board entry. {rows}: rows still to enter.",
  ("Saisie du plateau : reste la ligne {rows}.", "Saisie du plateau : restent les lignes {rows}."),
  ("Board entry: row {rows} is left.", "Board entry: rows {rows} are left."))
m("kissa.status_over", "Where the game stands after the end. {scores}.", "Partie finie. Scores : {scores}.", "Game over. Scores: {scores}.")
m("kissa.status", "Where the game stands. {player}: whose turn; {scores}; {n}: tokens left.",
  ("À {player} de jouer. Scores : {scores}. Reste {n} jeton.", "À {player} de jouer. Scores : {scores}. Reste {n} jetons."),
  ("{player} to play. Scores: {scores}. {n} token left.", "{player} to play. Scores: {scores}. {n} tokens left."),
  terse=(("{player}. {scores}. {n} jeton.", "{player}. {scores}. {n} jetons."), ("{player}. {scores}. {n} token.", "{player}. {scores}. {n} tokens.")))

# --- refusals (kissa.refused.<IllegalAction code>) -----------------------------------------------
R = [
    ("game_over", "The game is over.", "La partie est finie.", "The game is over."),
    ("not_your_turn", "Not the speaker's turn. {player}: whose turn it is.", "Ce n'est pas ton tour : c'est à {player}.", "Not your turn: it is {player}'s."),
    ("not_legal", "An action that is not possible now.", "Ce n'est pas possible maintenant.", "That is not possible now."),
    ("board_already_set", "The board can be entered only before play.", "Le plateau est déjà en place : la partie a commencé.", "The board is already set: play has started."),
    ("bad_row", "A row number out of 1 to 10. {row}.", "Il n'y a pas de ligne {row} : les lignes vont de 1 à 10.", "There is no row {row}: rows go from 1 to 10."),
    ("bad_row_digits", "A row that is not ten digits or empty cells. {row}; {digits}.", "La ligne {row} doit avoir dix chiffres ou cases vides.", "Row {row} needs ten digits or empty cells."),
    ("board_incomplete", "Play cannot start: rows are missing. {rows}: their numbers.", "Il manque encore des lignes : {rows}.", "Rows are still missing: {rows}."),
    ("bad_first_player", "The player named to start does not exist.", "Ce joueur n'existe pas.", "There is no such player."),
    ("board_not_ready", "A move before the physical board is entered.", "Le plateau n'est pas encore saisi : dicte les lignes, puis « commencer ».", "The board is not entered yet: say the rows, then \"start\"."),
    ("declare_physical_only", "Declaring no solution is for a physical table; here the companion knows when no move is left.", "Je vois le plateau : tant qu'un coup existe, cherche encore. Dis « indice » pour un indice.", "I hold the board: while a move exists, keep looking. Say \"hint\" for a hint."),
    ("bad_operation", "Only addition and multiplication are allowed.", "Seules l'addition et la multiplication sont permises.", "Only addition and multiplication are allowed."),
    ("not_a_number", "Cells that do not read as a number (a straight line, in a reading direction). {role}; {cells}.", "{role} ({cells}) n'est pas un nombre lisible : les chiffres doivent se suivre en ligne, de gauche à droite ou de haut en bas.", "{role} ({cells}) is not a readable number: its digits must follow in a line, left to right or top to bottom."),
    ("empty_cell", "A number goes through an empty cell. {role}; {cell}: the empty cell.", "{role} passe par la case vide {cell}.", "{role} goes through the empty cell {cell}."),
    ("leading_zero", "A number of two digits or more starts with 0 (RULES T-3). {role}; {cells}.", "{role} commence par un zéro : aucun nombre ne commence par zéro.", "{role} starts with a zero: no number may start with zero."),
    ("lone_zero", "In this variant a lone 0 is not a number. {role}; {cells}.", "Dans cette variante, un zéro seul n'est pas un nombre.", "In this variant a lone zero is not a number."),
    ("overlap", "Two of the three numbers share a cell (RULES T-4). {cell}: the shared cell.", "Deux nombres se partagent la case {cell} : ils doivent être séparés.", "Two numbers share cell {cell}: they must be separate."),
    ("kids_single_digit", "Kids' variant: the numbers added or multiplied have one digit each.", "Variante des petits : on additionne ou multiplie deux chiffres seuls.", "Kids' variant: only single digits are added or multiplied."),
    ("times_zero", "Multiplying by zero is forbidden (RULES T-5).", "La multiplication par zéro est interdite.", "Multiplying by zero is forbidden."),
    ("wrong_result", "The equation is false. {a}, {b}: the numbers; {op}; {c}: the result said; {expected}: the right one.", "Faux : cette {op} donne {expected}, pas {c}.", "Wrong: this {op} gives {expected}, not {c}."),
]
for code, comment, fr, en in R:
    m(f"kissa.refused.{code}", "Refusal: " + comment, fr, en)

for key, fr, en in [
    ("expert", "Variante experts : nombres lus dans les huit directions.", "Expert variant: numbers read in all eight directions."),
    ("kids", "Variante des petits : on additionne ou multiplie des chiffres seuls.", "Kids' variant: single digits are added or multiplied."),
    ("zero_is_number", "Un zéro seul compte comme un nombre.", "A lone zero counts as a number."),
    ("penalty", "Qui paie quand plus personne ne trouve : le joueur à qui c'est le tour, ou le dernier à avoir joué.", "Who pays when no one can move: the player to move, or the last one who moved."),
    ("physical", "Partie sur votre propre plateau : vous le dictez, puis annoncez vos coups.", "A game on your own board: you enter it, then announce your moves."),
]:
    m(f"kissa.option.{key}", "Help of a game option.", fr, en)


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from tests.potable import write_domain

    write_domain("kissa", "2kissa10: every message of the game (generated by tests/kissa/tools/kissa_messages.py).", M)
