# cython: cdivision=True
# (A header's inline functions take its own directives, not the .pyx's that compiles it in:
# C division, as when they were in uno.pyx.)
#
# UNO's card and action layout, as inline C (see uno.pyx for the core built on it): the card
# kinds, the 15-bit action codes, the rule flags, check()'s reasons and the vector's action
# index space. uno_state.pxd, uno_rules.pxd, uno_observe.pxd, uno.pyx and uno_vector.pyx all
# compile it in.
#
# Cards are *kinds* 0..53, one per distinct card face of the 108-card deck:
#
#     kind = 13 * colour + face        colour 0 red, 1 yellow, 2 green, 3 blue
#                                      face 0..9 the numbers, 10 Skip, 11 Reverse, 12 Draw Two
#     kind 52 Wild, kind 53 Wild Draw Four
#
# Action code layout (15 bits):
#
#     bits  0-2   type: PLAY, DRAW, KEEP, UNO, CATCH, COLOUR
#     bits  3-6   the acting player, 0..9
#     bits  7-12  PLAY: the card kind; CATCH: the caught player
#     bits 13-14  PLAY: the colour the card sets (its own colour, or a wild's chosen colour);
#                 COLOUR: the starting colour the first player chooses on a Wild

from libc.stdint cimport uint8_t

cdef enum:
    MAX_PLAYERS = 10
    KINDS = 54
    DECK_SIZE = 108
    HAND_SIZE = 7
    WILD = 52
    WILD_DRAW_FOUR = 53
    SKIP = 10              # faces
    REVERSE = 11
    DRAW_TWO = 12
    FACE_WILD = 13
    FACE_WILD_DRAW_FOUR = 14
    MAX_ACTIONS = 128      # a hand's plays (<= 52 + 8) + draw + call + catches + jump-ins

cdef enum:
    PLAY = 0
    DRAW = 1
    KEEP = 2
    UNO = 3
    CATCH = 4
    COLOUR = 5

cdef enum:                 # UnoState.over
    PLAYING = 0
    WENT_OUT = 1           # someone played their last card
    BLOCKED = 2            # a player had to draw and no card was left to draw

cdef enum:                 # rule flags, one bit each (ddz.uno.Rules.core_flags)
    F_STACKING = 1
    F_JUMP_IN = 2
    F_CALL_OUT = 4
    F_NO_FINISH_WD4 = 8
    F_RESHUFFLE = 16

cdef enum:                 # reasons check() gives; the Python layer words them
    OK = 0
    WRONG_JUMP_IN = 1      # legal, but punished: the player draws two, nothing else changes
    R_OVER = 2
    R_MALFORMED = 3
    R_BAD_PLAYER = 4
    R_NOT_HELD = 5
    R_NOT_YOUR_TURN = 6
    R_CHOOSE_COLOUR = 7
    R_ONLY_DRAWN = 8
    R_MUST_STACK = 9
    R_LAST_WD4 = 10
    R_NO_MATCH = 11
    R_ALREADY_DREW = 12
    R_NO_DRAW = 13
    R_NOTHING_TO_KEEP = 14
    R_RULE_OFF = 15
    R_NO_UNO = 16
    R_NO_CATCH = 17
    R_NO_CHOICE = 18


# The vector's action index space (ddz.uno.ActionSpace): turn actions only, see uno_vector.pyx.
cdef enum:
    NUM_INDICES = 77           # ddz.uno.ActionSpace.SIZE
    I_PLAY = 1                 # the space's bases
    I_WILD = 53
    I_WILD4 = 57
    I_DRAW = 61
    I_KEEP = 62
    I_COLOUR = 64


# --- cards ----------------------------------------------------------------------------------

cdef inline int colour_of(int kind) noexcept nogil:
    return kind // 13 if kind < WILD else -1


cdef inline int face_of(int kind) noexcept nogil:
    return kind % 13 if kind < WILD else kind - WILD + FACE_WILD


cdef inline int make_action(int kind, int player, int card, int colour) noexcept nogil:
    return kind | (player << 3) | (card << 7) | (colour << 13)


cdef inline void fill_deck(uint8_t* deck) noexcept nogil:
    """The 108 cards in canonical order: per colour 0, 1, 1, ..., 9, 9, S, S, R, R, +2, +2;
    then four Wilds and four Wild Draw Fours."""
    cdef int n = 0, colour, face, copy
    for colour in range(4):
        for face in range(13):
            for copy in range(1 if face == 0 else 2):
                deck[n] = 13 * colour + face
                n += 1
    for copy in range(4):
        deck[n] = WILD
        n += 1
    for copy in range(4):
        deck[n] = WILD_DRAW_FOUR
        n += 1


cdef inline int index_of(int code) noexcept nogil:
    """The UnoActionSpace index of a turn action's code (-1 for the others)."""
    cdef int kind = code & 7, card = (code >> 7) & 63, colour = (code >> 13) & 3
    if kind == PLAY:
        if card < WILD:
            return I_PLAY + card
        return (I_WILD if card == WILD else I_WILD4) + colour
    if kind == DRAW:
        return I_DRAW
    if kind == KEEP:
        return I_KEEP
    if kind == COLOUR:
        return I_COLOUR + colour
    return -1


cdef inline int code_of(long long index, int player) noexcept nogil:
    """The code of player's turn action of UnoActionSpace index `index` (-1 for the pass,
    the UNO call, the catches and indices outside the space)."""
    if I_PLAY <= index < I_WILD:
        return make_action(PLAY, player, <int>index - I_PLAY, colour_of(<int>index - I_PLAY))
    if I_WILD <= index < I_DRAW:
        return make_action(PLAY, player, WILD if index < I_WILD4 else WILD_DRAW_FOUR,
                           (<int>index - I_WILD) % 4)
    if index == I_DRAW:
        return make_action(DRAW, player, 0, 0)
    if index == I_KEEP:
        return make_action(KEEP, player, 0, 0)
    if I_COLOUR <= index < I_COLOUR + 4:
        return make_action(COLOUR, player, 0, <int>index - I_COLOUR)
    return -1


cdef inline int check_flags(int flags) except -1:
    if not 0 <= flags <= F_STACKING | F_JUMP_IN | F_CALL_OUT | F_NO_FINISH_WD4 | F_RESHUFFLE:
        raise ValueError(f"rule flags are 0..31 (ddz.uno.Rules.core_flags), not {flags}")
    return 0
