"""Names for generated content, made from small word lists: readable, not meaningful."""

from __future__ import annotations

import numpy as np

ADJECTIVES = ("Crimson", "Silent", "Iron", "Hollow", "Gilded", "Neon", "Rusted", "Velvet",
              "Shattered", "Midnight", "Electric", "Frozen", "Burning", "Sunken", "Glass",
              "Copper", "Shadow", "Howling", "Broken", "Emerald")
PLACES = ("Foundry", "Arcade", "Observatory", "Terminal", "Greenhouse", "Viaduct",
          "Archive", "Boardwalk", "Reservoir", "Depot", "Cathedral", "Market", "Stadium",
          "Laboratory", "Lighthouse", "Casino", "Tunnels", "Skybridge", "Mint", "Aquarium")
PLOTS = ("Heist", "Blackout", "Siege", "Takeover", "Lockdown", "Stampede", "Meltdown",
         "Standoff", "Uprising", "Flood")
TITLES = ("Baron", "Countess", "Doctor", "Professor", "Madame", "Captain", "Lord",
          "Duchess", "Warden", "Mister")
SURNAMES = ("Grimsby", "Vexley", "Halloway", "Crane", "Moriarte", "Blackwood", "Quill",
            "Marrow", "Sallow", "Thorne", "Wraxall", "Kestrel")
MINION_WORDS = ("Goon", "Enforcer", "Drone", "Thug", "Sentry", "Brute", "Saboteur",
                "Hound", "Gunner", "Lookout")
DEED_VERBS = ("Seize", "Rig", "Flood", "Jam", "Torch", "Loot", "Blockade", "Sabotage",
              "Hijack", "Poison", "Ransack", "Bribe", "Ambush", "Smuggle", "Silence")
DEED_OBJECTS = ("the Gates", "the Vault", "the Lights", "the Switchboard", "the Crowd",
                "the Generators", "the Docks", "the Bridge", "the Alarms", "the Press",
                "the Elevators", "the Water Main", "the Archive", "the Convoy", "the Tower")
PLOY_WORDS = ("Gambit", "Trap", "Bargain", "Feint", "Ultimatum", "Decoy", "Bluff", "Payoff",
              "Reprisal", "Trick", "Ruse", "Wager")
COUNTERS = ("loot", "charges", "fuel", "secrets", "hostages", "cargo", "votes", "relics")


def pick(rng: np.random.Generator, words: tuple[str, ...]) -> str:
    """One word of ``words``."""
    return words[int(rng.integers(len(words)))]


def unique_names(rng: np.random.Generator, n: int, make) -> list[str]:
    """``n`` different names from ``make(rng)`` (numbered when the words run out)."""
    out: list[str] = []
    for _ in range(n):
        name = make(rng)
        for _ in range(20):
            if name not in out:
                break
            name = make(rng)
        else:
            name = f"{name} {len(out) + 1}"
        out.append(name)
    return out


def deed(rng: np.random.Generator) -> str:
    """A card title such as "Rig the Alarms"."""
    return f"{pick(rng, DEED_VERBS)} {pick(rng, DEED_OBJECTS)}"


def ploy(rng: np.random.Generator) -> str:
    """A villain ploy's title such as "Velvet Ultimatum"."""
    return f"{pick(rng, ADJECTIVES)} {pick(rng, PLOY_WORDS)}"
