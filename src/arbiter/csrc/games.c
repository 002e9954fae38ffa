/* The table of the compiled games: a kernel found by its game's name. */
#include "core.h"

#include <string.h>

const GameVT *const GAMES[] = {&VOTEY_VT, &CHECKERS_VT, &ALQUERQUE_VT, &CHINESE_CHECKERS_VT, &HALMA_VT};

const GameVT *find_vt(const char *name) {
    for (size_t i = 0; i < sizeof GAMES / sizeof GAMES[0]; i++)
        if (strcmp(GAMES[i]->name, name) == 0) return GAMES[i];
    return NULL;
}

const size_t GAME_COUNT = sizeof GAMES / sizeof GAMES[0];
