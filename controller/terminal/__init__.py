"""The terminal front-ends: the `tafel` command line, play and hot-seat in a terminal, the card
table's companion screen, text drawings of boards and cards, self-play and the bench."""
