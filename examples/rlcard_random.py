"""RLCard's random-agent example, self-contained: RLCard's own API only, nothing of ddz.

    python examples/rlcard_random.py --env doudizhu                       # RLCard's engine
    python examples/rlcard_on_ddz.py examples/rlcard_random.py --env doudizhu   # ddz's

It does what RLCard's ``examples/run_random.py`` does (that script is in RLCard's repository,
not in its package): seeds RLCard, makes the environment named by ``--env``, seats a
``rlcard.agents.RandomAgent`` in every seat, plays ``--num_episodes`` games with
``env.run`` and prints each game's length and payoffs, then the mean payoffs of
``rlcard.utils.tournament`` over ``--num_games`` games. Run through
``examples/rlcard_on_ddz.py`` it plays on ddz's drop-in (``ddz.compat.rlcard``), unchanged;
the first line says which environment played.
"""

import argparse

import rlcard
from rlcard.agents import RandomAgent
from rlcard.utils import set_seed, tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="doudizhu", help="an environment RLCard knows")
    parser.add_argument("--num_episodes", type=int, default=2, help="games shown one by one")
    parser.add_argument("--num_games", type=int, default=100, help="games of the tournament")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()

    set_seed(args.seed)
    env = rlcard.make(args.env, config={"seed": args.seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    print(f"environment: {type(env).__module__}.{type(env).__name__}")
    for episode in range(args.num_episodes):
        trajectories, payoffs = env.run(is_training=False)
        steps = sum(len(trajectory) // 2 for trajectory in trajectories)
        print(f"game {episode}: {steps} moves, payoffs {[float(p) for p in payoffs]}")
    means = tournament(env, args.num_games)
    print(
        f"tournament of {args.num_games} games, mean payoffs {[round(float(m), 2) for m in means]}"
    )


if __name__ == "__main__":
    main()
