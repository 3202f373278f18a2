"""The source table of companion/locale/{fr,en}/LC_MESSAGES/kikoi.po (run to regenerate both).

Each entry: id, translator comment, French, English, and optional terse/verbose pairs. A
plural entry gives (singular, plural) for each language and takes its count from `n`.
"""

from __future__ import annotations

from pathlib import Path

KIKOI = {"kimouss": "Kimouss", "kigratt": "Kigratt", "kigliss": "Kigliss", "kiboss": "Kiboss", "kiboucle": "Kiboucle"}
E: list[tuple] = []


def m(id_, comment, fr, en, terse=None, verbose=None):
    E.append((id_, comment, fr, en, terse, verbose))


for k, name in KIKOI.items():
    m(f"kikoi.name.{k}", f"The name of the KIKOI {k.upper()} (a board row), said as a word, the same in every language.", name, name)

m("kikoi.tok.house", "A white token: the KIKOI {kikoi} is at home (symbol: a triangle, the roof).",
  "le {kikoi} dans sa maison", "{kikoi} at home", ("{kikoi} maison", "{kikoi} house"))
m("kikoi.tok.eat", "A white token: the KIKOI {kikoi} eats (symbol: a circle, the plate).",
  "le {kikoi} qui mange", "{kikoi} eating", ("{kikoi} mange", "{kikoi} eat"))
m("kikoi.tok.bike", "A white token: the KIKOI {kikoi} rides its bike (symbol: two half-spheres, the wheels).",
  "le {kikoi} à vélo", "{kikoi} on the bike", ("{kikoi} vélo", "{kikoi} bike"))
m("kikoi.tok.forest", "A white token: the KIKOI {kikoi} walks in the forest (symbol: a flower).",
  "le {kikoi} en forêt", "{kikoi} in the forest", ("{kikoi} forêt", "{kikoi} forest"))
m("kikoi.tok.sleep", "A white token: the KIKOI {kikoi} sleeps (symbol: a rectangle, the bed).",
  "le {kikoi} qui dort", "{kikoi} sleeping", ("{kikoi} dort", "{kikoi} sleep"))
m("kikoi.red.kikonk", "The red token KIKONK (no texture, no symbol).", "le Kikonk", "the Kikonk")
m("kikoi.red.kitourn", "The red token KITOURN (a hollow spiral).", "le Kitourn", "the Kitourn")
m("kikoi.red.kipirat", "The red token KIPIRAT (a round hole).", "le Kipirat", "the Kipirat")
for mo, fr, en in (("house", "maison", "house"), ("eat", "mange", "eat"), ("bike", "vélo", "bike"),
                   ("forest", "forêt", "forest"), ("sleep", "dort", "sleep")):
    m(f"kikoi.moment.{mo}", f"A moment of a KIKOI's day, one word, as in a row reading ({mo}).", fr, en)
for k, fr, en in (("kimouss", "mousse", "foam"), ("kigratt", "rugueuse", "rough"), ("kigliss", "lisse", "smooth"),
                  ("kiboss", "ondulée", "wavy"), ("kiboucle", "bouclée", "curly")):
    m(f"kikoi.texture.{k}", f"The texture felt on the {k.upper()} tokens' face and on its board row.", fr, en)
for mo, fr, en in (("house", "un triangle, le toit de la maison", "a triangle, the roof of the house"),
                   ("eat", "un cercle, l'assiette", "a circle, the plate"),
                   ("bike", "deux demi-sphères, les roues du vélo", "two half-spheres, the wheels of the bike"),
                   ("forest", "une fleur, la promenade en forêt", "a flower, the walk in the forest"),
                   ("sleep", "un rectangle, le lit", "a rectangle, the bed")):
    m(f"kikoi.symbol.{mo}", f"The raised symbol of the moment {mo} on a token's other face.", fr, en)
m("kikoi.nothing", "Said in place of an empty list.", "rien", "nothing")
m("kikoi.board_count", "The start of a player's own board reading. {n}: tokens on it.",
  ("Ton plateau : {n} jeton.", "Ton plateau : {n} jetons."), ("Your board: {n} token.", "Your board: {n} tokens."),
  (("{n} jeton.", "{n} jetons."), ("{n} token.", "{n} tokens.")))
m("kikoi.row_empty", "A board row with no token. {kikoi}: the row's KIKOI.", "{kikoi} : vide.", "{kikoi}: empty.")
m("kikoi.row_full", "A board row with all five moments: a completed day.", "{kikoi} : journée finie !", "{kikoi}: day complete!")
m("kikoi.row", "A board row: {kikoi} and the moments on it ({moments}, a list of words).",
  "{kikoi} : {moments}.", "{kikoi}: {moments}.")
m("kikoi.started", "Start of a game held by the companion. {n} players, {deal} tokens each, {first} starts.",
  "Les 5 KIKOI à {n} joueurs, {deal} jetons chacun. {first} commence.",
  "The 5 KIKOI, {n} players, {deal} tokens each. {first} starts.",
  ("KIKOI, {n} joueurs. {first} commence.", "KIKOI, {n} players. {first} starts."),
  ("Les 5 KIKOI à {n} joueurs. Je tire {deal} jetons pour chacun et je les dis à chacun en secret. Dis « mon plateau » pour entendre les tiens. {first} commence, puis on tourne vers la gauche.",
   "The 5 KIKOI, {n} players. I draw {deal} tokens for each of you and tell each of you yours in secret. Say \"my board\" to hear yours. {first} starts, then play passes to the left."))
m("kikoi.started_physical", "Start of a game at a physical table: the players draw and tell the companion.",
  "Les 5 KIKOI à la table, {n} joueurs. Chacun tire {deal} jetons du sac et me les dit. {first} commencera.",
  "The 5 KIKOI at the table, {n} players. Each of you draws {deal} tokens from the bag and tells me. {first} will start.",
  ("KIKOI à la table, {n} joueurs, {deal} jetons.", "KIKOI at the table, {n} players, {deal} tokens."))
m("kikoi.red_on", "The red tokens are used this game (the companion puts them into the bag after its deal, RULES KI-3).",
  "Avec les jetons rouges : Kikonk, Kitourn et Kipirat, mis dans le sac après la distribution.",
  "With the red tokens: Kikonk, Kitourn and Kipirat, put into the bag after the deal.", ("Rouges : oui.", "Red: yes."))
m("kikoi.red_off", "The red tokens are not used this game.", "Sans jetons rouges.", "No red tokens.", ("Rouges : non.", "Red: no."))
m("kikoi.dealt", "Said privately: the tokens dealt to this player. {n}: count, {tokens}: a list.",
  ("Ton jeton : {tokens}.", "Tes {n} jetons : {tokens}."), ("Your token: {tokens}.", "Your {n} tokens: {tokens}."))
m("kikoi.dealt_one", "Physical table, said privately: the token a player told is noted on their board.",
  "Noté : {token}.", "Noted: {token}.")
m("kikoi.deal_done", "The deal is over. {n}: tokens left in the bag.",
  ("Distribution faite. {n} jeton dans le sac.", "Distribution faite. {n} jetons dans le sac."),
  ("Deal done. {n} token in the bag.", "Deal done. {n} tokens in the bag."))
m("kikoi.turn", "A player's turn begins.", "À {player}.", "{player}'s turn.", ("{player}.", "{player}."),
  ("C'est au tour de {player} de demander un jeton.", "It is {player}'s turn to ask for a token."))
m("kikoi.play_again", "The player got the token and plays again.", "{player} rejoue.", "{player} plays again.",
  ("Rejoue.", "Again."))
m("kikoi.asked", "A request said aloud: {asker} asks {target} for {token}.",
  "{asker} demande à {target} {token}.", "{asker} asks {target} for {token}.",
  ("{token}, {asker} à {target}.", "{token}, {asker} to {target}."))
m("kikoi.kikonk_asked", "With the KIKONK, {asker} asks every player at once for {token}.",
  "{asker} demande à tout le monde {token}.", "{asker} asks everyone for {token}.",
  ("{token}, à tous.", "{token}, to all."))
m("kikoi.given", "{giver} had the token and gives it to {receiver}.",
  "{giver} donne {token} à {receiver}.", "{giver} gives {token} to {receiver}.",
  ("Donné : {token}.", "Given: {token}."))
m("kikoi.given_kikonk", "After a KIKONK request: {giver} had the token and gives it.",
  "{giver} avait {token} et le donne à {receiver}.", "{giver} had {token} and gives it to {receiver}.",
  ("Donné par {giver} : {token}.", "Given by {giver}: {token}."))
m("kikoi.refused", "The asked player does not have the token; the asker must draw.",
  "{target} ne l'a pas. {asker} pioche.", "{target} hasn't got it. {asker} draws.",
  ("Non. Pioche.", "No. Draw."))
m("kikoi.refused_completed", "The asked player refuses: that KIKOI's day is complete on their board (never given).",
  "{target} refuse : le {kikoi} a fini sa journée !", "{target} refuses: {kikoi}'s day is over!",
  ("Refusé : {kikoi} fini.", "Refused: {kikoi} done."))
m("kikoi.turn_lost", "The player loses their turn.", "{player} perd son tour.", "{player} loses the turn.",
  ("Tour perdu.", "Turn lost."))
m("kikoi.bag_emptied", "The last token has left the bag.", "Le sac est vide !", "The bag is empty!")
m("kikoi.no_draw", "A refused request with an empty bag: nothing to draw, the turn passes.",
  "Plus rien à piocher : le tour passe.", "Nothing left to draw: the turn passes.", ("Sac vide.", "Bag empty."))
m("kikoi.drew", "Said privately to the drawer: the token they drew.", "Tu as pioché {token}.", "You drew {token}.",
  ("Pioché : {token}.", "Drew: {token}."))
m("kikoi.good_draw", "The drawn token is the one asked for (\"bonne pioche\"). {n}: tokens left in the bag.",
  "Bonne pioche pour {player} !", "Good draw for {player}!", ("Bonne pioche !", "Good draw!"),
  ("Bonne pioche pour {player} ! Sac : {n}.", "Good draw for {player}! Bag: {n}."))
m("kikoi.bad_draw", "The drawn token is not the one asked for (\"mauvaise pioche\"). {n}: tokens left in the bag.",
  "Mauvaise pioche.", "Bad draw.", ("Mauvaise.", "Bad."),
  ("Mauvaise pioche pour {player}. Sac : {n}.", "Bad draw for {player}. Bag: {n}."))
m("kikoi.drew_blind", "The player could ask for nothing and draws one token instead.",
  "{player} ne peut rien demander et pioche un jeton.", "{player} cannot ask for anything and draws a token.",
  ("{player} pioche.", "{player} draws."))
m("kikoi.kikonk_drawn", "The drawer found the KIKONK: they ask everyone at once.",
  "Kikonk ! {player} va demander un jeton à tout le monde à la fois.",
  "Kikonk! {player} will ask everyone at once for a token.", ("Kikonk !", "Kikonk!"))
m("kikoi.kikonk_failed", "Nobody gives the token asked for with the KIKONK; the turn passes.",
  "Personne ne donne {token}.", "Nobody gives {token}.", ("Personne.", "Nobody."))
m("kikoi.kikonk_nothing", "The KIKONK drawer has nothing they may ask for.",
  "{player} n'a rien à demander avec le Kikonk.", "{player} has nothing to ask for with the Kikonk.")
m("kikoi.kitourn_drawn", "The drawer found the KITOURN: the boards will turn and the turn ends.",
  "Kitourn ! Mauvaise pioche pour {player}.", "Kitourn! Bad draw for {player}.", ("Kitourn !", "Kitourn!"))
m("kikoi.boards_rotated", "Every board has passed to the player on its owner's left; contents are not said.",
  "Chacun passe son plateau à sa gauche : les plateaux ont tourné.",
  "Everyone passes their board to the left: the boards have turned.", ("Plateaux tournés.", "Boards turned."))
m("kikoi.kipirat_drawn", "Said privately to the drawer of the KIPIRAT, which stays secret.",
  "Tu as pioché le Kipirat ! Garde-le secret : quand un jeton passera entre deux autres joueurs, dis « kipirat » pour le voler.",
  "You drew the Kipirat! Keep it secret: when a token passes between two other players, say \"kipirat\" to steal it.",
  ("Kipirat, en secret.", "Kipirat, secretly."))
m("kikoi.stolen", "{pirate} played the KIPIRAT and steals the token meant for {receiver}.",
  "Kipirat ! {pirate} vole {token} !", "Kipirat! {pirate} steals {token}!", ("Kipirat : {pirate}.", "Kipirat: {pirate}."))
m("kikoi.day_completed", "A player completed a KIKOI's day; said once, never repeated.",
  "{player} : le {kikoi} a fini sa journée !", "{player}: {kikoi} has finished its day!",
  ("{kikoi} fini, {player} !", "{kikoi} done, {player}!"))
m("kikoi.passed", "The player could ask for nothing and passes.", "{player} passe.", "{player} passes.")
m("kikoi.ended.all_days", "End: all five days are complete.", "Partie finie : les cinq journées sont complètes.",
  "Game over: all five days are complete.", ("Fin.", "Game over."))
m("kikoi.ended.stall", "End: the bag is empty and no token moved for the agreed rounds.",
  "Partie finie : le sac est vide et plus aucun jeton ne bouge.", "Game over: the bag is empty and no token moves any more.",
  ("Fin.", "Game over."))
m("kikoi.ended.bag_empty", "End (variant): the round in which the bag emptied is over.",
  "Partie finie : le sac est vide et le tour de table est fini.", "Game over: the bag is empty and the round is over.",
  ("Fin.", "Game over."))
m("kikoi.final_days", "A player's completed days. {n}: how many, {days}: the KIKOI.",
  ("{player} : {n} journée, {days}.", "{player} : {n} journées, {days}."),
  ("{player}: {n} day, {days}.", "{player}: {n} days, {days}."))
m("kikoi.final_none", "A player with no completed day.", "{player} : aucune journée.", "{player}: no day.")
m("kikoi.winners", "The winners; ties share the win. {n}: how many winners, {players}: their names.",
  ("{players} gagne !", "Victoire partagée : {players} !"), ("{players} wins!", "Shared win: {players}!"))
m("kikoi.which_kikoi", "Question back: the line named no KIKOI, or too many.",
  "Quel KIKOI ? Kimouss, Kigratt, Kigliss, Kiboss ou Kiboucle ?",
  "Which KIKOI? Kimouss, Kigratt, Kigliss, Kiboss or Kiboucle?", ("Quel KIKOI ?", "Which KIKOI?"))
m("kikoi.which_of", "Question back: the line named several KIKOI. {choices}: a list.",
  "Lequel : {choices} ?", "Which one: {choices}?")
m("kikoi.which_moment", "Question back: which moment of {kikoi}'s day.",
  "Quel moment du {kikoi} : maison, mange, vélo, forêt ou dort ?",
  "Which moment of {kikoi}: house, eat, bike, forest or sleep?", ("Quel moment ?", "Which moment?"))
m("kikoi.which_player", "Question back: whom to ask for {token}.",
  "À qui demandes-tu {token} ?", "Whom do you ask for {token}?", ("À qui ?", "Whom?"))
m("kikoi.no_free_draw", "Refusal: drawing only follows a refused request.",
  "On ne pioche qu'après une demande refusée. Demande d'abord un jeton à un joueur.",
  "You draw only after a refused request. First ask a player for a token.")
m("kikoi.describe_kikoi", "Answer to \"what is {kikoi}?\": its board row and texture.",
  "Le {kikoi}, ligne {row} du plateau : texture {texture}.", "{kikoi}, row {row} of the board: {texture} texture.")
m("kikoi.describe_token", "One token's symbol, in a description.", "{token} : {symbol}.", "{token}: {symbol}.")
m("kikoi.describe_moment", "A moment's symbol, in a description.", "{moment} : {symbol}.", "{moment}: {symbol}.")
m("kikoi.describe_red.kikonk", "What the KIKONK feels like and does.",
  "Le Kikonk, jeton rouge sans texture ni symbole : qui le pioche demande aussitôt un jeton à tout le monde à la fois.",
  "The Kikonk, a red token with no texture and no symbol: whoever draws it at once asks everyone for a token.")
m("kikoi.describe_red.kitourn", "What the KITOURN feels like and does.",
  "Le Kitourn, jeton rouge avec une spirale en creux : chacun passe son plateau à sa gauche.",
  "The Kitourn, a red token with a hollow spiral: everyone passes their board to the left.")
m("kikoi.describe_red.kipirat", "What the KIPIRAT feels like and does.",
  "Le Kipirat, jeton rouge percé d'un trou rond : on le garde en secret pour voler un jeton qui passe entre deux autres joueurs.",
  "The Kipirat, a red token with a round hole: kept secret, it steals a token passing between two other players.")
m("kikoi.learn_white", "Learn mode: token {i} of 28, its name, texture face and symbol face.",
  "Jeton {i} sur 28 : {token}. Face texture : {texture}. Face symbole : {symbol}.",
  "Token {i} of 28: {token}. Texture face: {texture}. Symbol face: {symbol}.")
m("kikoi.learn_red", "Learn mode: red token {i} of 28 and its description.",
  "Jeton {i} sur 28 : {description}", "Token {i} of 28: {description}")
m("kikoi.learn_next", "Learn mode: how to go on, said after the first token.",
  "Dis « suivant » pour le jeton d'après, « fin » pour arrêter.", "Say \"next\" for the next token, \"end\" to stop.")
m("kikoi.learn_done", "Learn mode: all tokens were presented.", "Voilà les 28 jetons.", "Those are the 28 tokens.")
m("kikoi.learn_stopped", "Learn mode was stopped.", "Fin de l'apprentissage.", "Learning stopped.")
m("kikoi.log_not_allowed", "Refusal: public events are said once (the easier mode allows hearing them again).",
  "Aux 5 KIKOI, on ne répète pas : c'est un jeu de mémoire. Le mode facile le permet.",
  "In the 5 KIKOI nothing is repeated: it is a memory game. The easier mode allows it.")
m("kikoi.help.ask", "Help on one's turn, with a real example of a legal request.",
  "Demande un jeton à un joueur, par exemple « demande à {target} {token} ». Tu ne peux demander qu'un KIKOI déjà sur ta ligne.",
  "Ask a player for a token, for example \"ask {target} for {token}\". You may ask only for a KIKOI already on your row.")
m("kikoi.help.kikonk", "Help after drawing the KIKONK.", "Kikonk : demande un jeton à tout le monde, par exemple « {token} ».",
  "Kikonk: ask everyone for a token, for example \"{token}\".")
m("kikoi.help.draw_blind", "Help when no request is possible and the companion draws.",
  "Tu ne peux rien demander : dis « pioche ».", "You cannot ask for anything: say \"draw\".")
m("kikoi.help.pass", "Help when no request is possible and the player passes.",
  "Tu ne peux rien demander : dis « passe ».", "You cannot ask for anything: say \"pass\".")
m("kikoi.help.answer", "Physical table: help for the asked player.",
  "Réponds : « je donne » si tu as ce jeton, « non » sinon.", "Answer \"I give\" if you have that token, \"no\" otherwise.")
m("kikoi.help.deal", "Physical table: help during the deal. {n}: tokens still to tell.",
  "Tire un jeton du sac et dis-le, par exemple « kigliss dort ». Encore {n}.",
  "Draw a token from the bag and say it, for example \"kigliss sleep\". {n} to go.")
m("kikoi.help.draw", "Physical table: help for the drawer.",
  "Dis le jeton que tu as pioché, par exemple « kiboss maison » ou « kikonk ».",
  "Say the token you drew, for example \"kiboss house\" or \"kikonk\".")
m("kikoi.help.pirate", "Help in the KIPIRAT window: the same words for everyone, so it tells nobody who holds it.",
  "Un jeton passe. Dis « passe » pour le laisser, ou « kipirat » si tu as le Kipirat.",
  "A token is passing. Say \"pass\" to let it go, or \"kipirat\" if you have the Kipirat.")
m("kikoi.help.wait", "Help when it is someone else's turn.", "C'est à {player}.", "It is {player}'s turn.")
m("kikoi.help.queries", "The queries anyone may make at any time.",
  "À tout moment : « mon plateau », « c'est quoi le kigliss ? », « apprendre », « état ».",
  "At any time: \"my board\", \"what is kigliss?\", \"learn\", \"status\".")
for ph, fr, en in (("deal", "Distribution : {player} dit ses jetons.", "Deal: {player} tells their tokens."),
                   ("ask", "À {player} de demander. Sac : {n}.", "{player} to ask. Bag: {n}."),
                   ("answer", "{player} doit répondre à {turn}. Sac : {n}.", "{player} must answer {turn}. Bag: {n}."),
                   ("draw", "{player} pioche. Sac : {n}.", "{player} draws. Bag: {n}."),
                   ("kikonk", "{player} demande à tout le monde, avec le Kikonk. Sac : {n}.", "{player} asks everyone, with the Kikonk. Bag: {n}."),
                   ("pirate", "Un jeton passe ; on attend {player}. Sac : {n}.", "A token is passing; waiting for {player}. Bag: {n}.")):
    m(f"kikoi.status.{ph}", f"Status during the phase {ph}. {{player}}: who acts, {{turn}}: whose turn, {{n}}: tokens in the bag.", fr, en)
m("kikoi.status_mine", "Status, said privately: the player's own completed days.",
  "Tes journées finies : {n} ({days}).", "Your completed days: {n} ({days}).")
m("kikoi.status_over", "Status after the end.", "La partie est finie.", "The game is over.")
m("kikoi.prompt.pirate", "Said privately to each other player when a token passes: the KIPIRAT moment.",
  "{player}, {token} passe. Kipirat ? Dis « passe » ou « kipirat ».",
  "{player}, {token} is passing. Kipirat? Say \"pass\" or \"kipirat\".", ("{player}, kipirat ?", "{player}, kipirat?"))
m("kikoi.prompt.answer", "Physical table: the asked player must say whether they give the token.",
  "{player}, {asker} te demande {token}. Tu le donnes ? « je donne » ou « non ».",
  "{player}, {asker} asks you for {token}. Do you give it? \"I give\" or \"no\".", ("{player}, tu donnes ?", "{player}, give?"))
m("kikoi.prompt.deal", "Physical table: a player must tell the tokens they draw at the deal.",
  ("{player}, tire {n} jeton et dis-le-moi.", "{player}, tire {n} jetons et dis-les-moi, un par un."),
  ("{player}, draw {n} token and tell me which.", "{player}, draw {n} tokens and tell me each one."))
m("kikoi.prompt.draw", "Physical table: the asker must draw and tell the token.",
  "{player}, pioche vite un jeton et dis-moi lequel.", "{player}, draw a token quickly and tell me which.",
  ("{player}, pioche.", "{player}, draw."))
m("kikoi.prompt.ask", "A human player's turn to ask: the cue after the turn is announced.",
  "{player}, que demandes-tu, et à qui ?", "{player}, what do you ask for, and from whom?",
  ("{player} ?", "{player}?"))
m("kikoi.prompt.kikonk", "The KIKONK drawer must ask everyone.", "{player}, Kikonk : demande un jeton à tout le monde.",
  "{player}, Kikonk: ask everyone for a token.")
for ph, fr, en in (("deal", "la distribution", "the deal"), ("ask", "une demande", "a request"),
                   ("answer", "une réponse", "an answer"), ("draw", "une pioche", "a draw"),
                   ("kikonk", "la demande du Kikonk", "the Kikonk request"), ("pirate", "le moment du Kipirat", "the Kipirat moment"),
                   ("over", "la fin de partie", "the end of the game")):
    m(f"kikoi.phase.{ph}", f"What is expected now, named in a refusal (phase {ph}).", fr, en)
m("kikoi.hint.can_ask", "After a refused request: the KIKOI the player may ask for.",
  "Tu peux demander : {kikois}.", "You may ask for: {kikois}.")
REFUSALS = {
    "not_white": ("On ne demande que des jetons blancs.", "You can only ask for white tokens."),
    "wrong_phase": ("Pas maintenant : on attend {phase}.", "Not now: we are waiting for {phase}."),
    "kikonk_asks_everyone": ("Avec le Kikonk, on demande à tout le monde à la fois : dis juste le jeton.",
                             "With the Kikonk you ask everyone at once: just say the token."),
    "no_kikonk": ("On demande à un seul joueur ; tout le monde, c'est seulement avec le Kikonk.",
                  "You ask one player; everyone at once is only with the Kikonk."),
    "no_such_seat": ("Ce joueur n'est pas à la table.", "That player is not at the table."),
    "ask_yourself": ("On ne se demande pas à soi-même : choisis un autre joueur.", "You cannot ask yourself: choose another player."),
    "already_have": ("Tu as déjà {token} sur ton plateau.", "You already have {token} on your board."),
    "kikoi_not_on_board": ("Tu n'as aucun {kikoi} sur ta ligne : tu ne peux pas encore le demander.",
                           "You have no {kikoi} on your row: you cannot ask for it yet."),
    "not_legal": ("Ce n'est pas possible maintenant.", "That is not possible now."),
    "completed_day_kept": ("Ce jeton est dans une journée finie : on ne le donne pas, dis « non ».",
                           "That token is in a completed day: it is never given, say \"no\"."),
    "not_held": ("D'après ton plateau, tu n'as pas {token} : dis « non ».", "By your board, you do not have {token}: say \"no\"."),
    "must_give": ("Tu as {token} sur ton plateau : il faut le donner. Dis « je donne ».",
                  "You have {token} on your board: you must give it. Say \"I give\"."),
    "no_such_token": ("Je ne connais pas ce jeton.", "I do not know that token."),
    "red_in_deal": ("Les jetons rouges ne sont pas dans le sac pendant la distribution : vérifie le jeton.",
                    "The red tokens are not in the bag during the deal: check the token."),
    "out_of_game": ("{token} a déjà servi : il n'est plus dans le jeu. Vérifie le jeton.",
                    "{token} was already used: it is out of the game. Check the token."),
    "already_placed": ("{token} est déjà sur un plateau : vérifie le jeton.", "{token} is already on a board: check the token."),
    "must_ask": ("Tu peux encore demander un jeton : demande d'abord.", "You can still ask for a token: ask first."),
    "not_in_bag": ("{token} n'est pas dans le sac.", "{token} is not in the bag."),
    "no_kipirat": ("Tu n'as pas le Kipirat : dis « passe ».", "You do not have the Kipirat: say \"pass\"."),
    "two_players_variant": ("À deux, c'est une variante : choisis l'option deux joueurs.",
                            "Two players is a variant: choose the two-player option."),
}
for code, (fr, en) in REFUSALS.items():
    m(f"kikoi.refused.{code}", f"Refusal, said to the player alone (code {code}); never says whose board a token is on.", fr, en)
# #17: the red tokens go into the bag after a physical deal (RULES KI-1, KI-3); a secret KIPIRAT
# said inside the board's first line.
m("kikoi.board_count_secret", "The start of the board reading of the player who secretly holds the KIPIRAT, in one line "
  "(one more line would show on a shared screen). {n}: tokens on it.",
  ("Ton plateau : {n} jeton, et le Kipirat en secret.", "Ton plateau : {n} jetons, et le Kipirat en secret."),
  ("Your board: {n} token, and the Kipirat, secretly.", "Your board: {n} tokens, and the Kipirat, secretly."),
  (("{n} jeton, et le Kipirat.", "{n} jetons, et le Kipirat."), ("{n} token, and the Kipirat.", "{n} tokens, and the Kipirat.")))
m("kikoi.red_aside", "Physical table, at the start (RULES KI-1): the red tokens stay out of the bag during the deal.",
  "Jetons rouges : laissez-les hors du sac pendant la distribution ; je dirai quand les y mettre.",
  "Red tokens: keep them out of the bag for the deal; I will say when to put them in.",
  ("Rouges : hors du sac pour l'instant.", "Reds: out of the bag for now."))
m("kikoi.reds_due", "Physical table, after the deal (RULES KI-3): now the red tokens go into the bag.",
  "Tout le monde a ses jetons. Mettez maintenant les trois jetons rouges dans le sac : Kikonk, Kitourn et Kipirat.",
  "Everyone has their tokens. Now put the three red tokens into the bag: Kikonk, Kitourn and Kipirat.",
  ("Rouges dans le sac, maintenant.", "Reds into the bag, now."))
m("kikoi.prompt.reds", "Physical table: the table says when the red tokens are in the bag. {player}: who answers for the table.",
  "{player}, dis « prêt » quand les jetons rouges sont dans le sac.", "{player}, say \"ready\" when the red tokens are in the bag.",
  ("{player} : rouges dans le sac ? Dis « prêt ».", "{player}: reds in the bag? Say \"ready\"."))
m("kikoi.reds_in", "Physical table: the red tokens are in the bag; play begins.",
  "Les jetons rouges sont dans le sac.", "The red tokens are in the bag.", ("Rouges dans le sac.", "Reds in the bag."))
m("kikoi.help.reds", "Physical table: help while the red tokens go into the bag.",
  "Mets les trois jetons rouges dans le sac (Kikonk, Kitourn, Kipirat), puis dis « prêt ».",
  "Put the three red tokens into the bag (Kikonk, Kitourn, Kipirat), then say \"ready\".")
m("kikoi.status.reds", "Status during the phase reds. {player}: who acts, {turn}: whose turn, {n}: tokens in the bag.",
  "Les jetons rouges vont dans le sac ; {player} dit « prêt » quand c'est fait. Sac : {n}.",
  "The red tokens go into the bag; {player} says \"ready\" when it is done. Bag: {n}.")
m("kikoi.phase.reds", "What is expected now, named in a refusal (phase reds).",
  "les jetons rouges dans le sac", "the red tokens in the bag")
OPTIONS = {
    "physical": ("Jeu à une vraie table : les joueurs me disent les jetons tirés et les réponses.",
                 "Play at a real table: players tell me the tokens drawn and the answers."),
    "red_tokens": ("Jetons rouges dans le sac (Kikonk, Kitourn, Kipirat).", "Red tokens in the bag (Kikonk, Kitourn, Kipirat)."),
    "two_players": ("Variante à deux joueurs, six jetons chacun.", "Two-player variant, six tokens each."),
    "deal": ("Nombre de jetons tirés par joueur (enfants jeunes : moins).", "Tokens drawn per player (young children: fewer)."),
    "end": ("Fin : toutes les journées finies, ou à la fin du tour où le sac se vide.",
            "End: all days complete, or at the end of the round in which the bag empties."),
    "stall_rounds": ("Tours de table sans mouvement, sac vide, avant de finir.", "Rounds with no move, bag empty, before the end."),
    "good_draw": ("Bonne pioche : le jeton exact, ou le même KIKOI.", "Good draw: the exact token, or the same KIKOI."),
    "completed_ask": ("Demander une journée finie : le tour est perdu, ou on pioche.",
                      "Asking for a completed day: the turn is lost, or you draw."),
    "no_request": ("Sans demande possible : piocher un jeton, ou passer.", "No request possible: draw a token, or pass."),
    "announce_boards": ("Après le Kitourn, dire à chacun son nouveau plateau.", "After the Kitourn, tell each player their new board."),
    "repeat_public_log": ("Mode facile : on peut réentendre les événements.", "Easier mode: the events can be heard again."),
    "first": ("Le joueur qui commence (numéro de place, à partir de 0).", "The player who starts (seat number, from 0)."),
    "kipirat_window": ("Qui est interrogé sur le Kipirat quand un jeton passe : tout le monde (à plusieurs, pour que "
                       "personne ne sache qui l'a), ou seulement celui qui l'a (un seul humain avec des robots).",
                       "Who is asked about the Kipirat when a token passes: everyone (several people, so nobody "
                       "learns who holds it), or only its holder (one human with bots)."),
}
for key, (fr, en) in OPTIONS.items():
    m(f"kikoi.option.{key}", f"Help of the game option {key}.", fr, en)


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from tests.potable import write_domain

    write_domain("kikoi", "Les 5 KIKOI: every message of the game (generated by tests/kikoi/tools/kikoi_messages.py).", E)
