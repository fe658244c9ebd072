"""The bot: the Pi plays Caesar or Pompeius from its own side's information only.

Application layer over the pure engine (`engine/` never imports this package):

* `info`        - `InfoState` (what one side may know now) and `Memory` (what it has seen).
* `determinize` - a full `GameState` sampled consistently with an `InfoState`.
* `heuristic`   - the fast policy (the `easy` level and the rollout policy) and the evaluation.
* `search`      - determinized Monte Carlo search (PIMC with UCB1 at the root).
* `levels`      - `Bot`, `LEVELS`, `DEFAULT_LEVEL`.
* `match`       - bot-vs-bot games and match scores with a confidence interval.

See docs/bot.md.
"""
from .info import InfoState, Memory
from .levels import DEFAULT_LEVEL, LEVELS, Bot

__all__ = ["Bot", "InfoState", "Memory", "LEVELS", "DEFAULT_LEVEL"]
