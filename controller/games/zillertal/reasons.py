"""Why a Zillertal action is illegal, in words a player understands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.games.base import (
    Action,
)
from controller.games.cards import UNSEEN
from controller.games.zillertal.actions import (
    BonusCross,
    BonusExchange,
    BonusGorge,
    BonusTask,
    BonusTokens,
    Claim,
    Done,
    End,
    NewContract,
    Place,
    PlaceToken,
    SecondCross,
    SetAside,
    Swap,
)
from controller.games.zillertal.cards import (
    BLANK,
)
from controller.games.zillertal.model import CROSS, DEAL, DRAW, EXCHANGE, GORGE_CARDS, REDRAW, TOKENS, token_supply
from controller.games.zillertal.valley import ICON_INDEX

if TYPE_CHECKING:
    from controller.games.zillertal.state import ZillertalState


def why_illegal(state: ZillertalState, action: Action) -> str:
    t = state._position
    if t.over:
        return "the game is over"
    kinds = (
        Place,
        SetAside,
        Claim,
        BonusTokens,
        PlaceToken,
        BonusTask,
        BonusExchange,
        Swap,
        Done,
        BonusGorge,
        BonusCross,
        SecondCross,
        End,
        NewContract,
    )
    if not isinstance(action, kinds):
        return f"{action!r} is not a Zillertal action"
    me = t.current
    hand = t.hands[me]
    valley = state.valley
    if t.pending in (DEAL, DRAW, REDRAW):
        return _why_not_entry(state, action)
    if isinstance(action, NewContract):
        return "a contract is entered only when one is dealt or drawn (ZT-E11)"
    if t.pending == TOKENS and not isinstance(action, PlaceToken):
        return f"place the bonus tokens first ({t.tokens_left} left)"
    if t.pending == EXCHANGE and not isinstance(action, Swap | Done):
        return "finish the exchange first (swap CARD, or done)"
    if t.pending == CROSS and not isinstance(action, SecondCross):
        return "lay the second Cross first (cross@LINE)"
    if isinstance(action, PlaceToken | Swap | Done | SecondCross) and t.pending is None:
        return "that belongs to a bonus that is not being used"
    if isinstance(action, Place | SetAside):
        if t.played:
            return "you have already laid your card this turn"
        if UNSEEN in hand:
            if action.card not in state._set.valley:
                return f"{action.card} is not a Valley card of this card set"
            if state.unaccounted(action.card) <= 0:
                copies = state._set.copies[action.card]
                return f"all {copies} copies of {action.card} are already in the Valley or set aside (ZT-E10)"
            if isinstance(action, SetAside):
                lines = ", ".join(map(str, state.placements(action.card)))
                return f"{action.card} fits in the Valley (left edge on line {lines}): lay it (ZT-E1)"
        elif action.card not in hand:
            return f"{action.card} is not in your hand"
        if isinstance(action, SetAside):
            return "a card may be set aside only when no hand card fits anywhere in the Valley (ZT-E1)"
        reason = valley.why_not(state._set.valley[action.card], action.at)
        return reason or "that placement is not possible"
    if isinstance(action, Claim):
        if not t.played:
            return "tasks are claimed only after laying your card (rule text)"
        return _why_not_task(state, action.contract, action.icon, claim=True)
    if isinstance(action, End):
        if not t.played:
            return "lay a card before ending the turn (rule text: you must play a card each turn)"
        if state.solo:
            return "solo contracts are not replaced: end the turn with 'end'"
        return (
            f"choose {min(t.replacements, sum(map(len, t.piles)))} pile value(s) for the contract(s) "
            "completed this turn, from piles that still hold cards (e.g. end 2)"
        )
    if isinstance(action, PlaceToken):
        supply = token_supply(state._set, t.tokens)
        kind = BLANK if action.blank else action.icon
        if supply.get(kind, 0) <= 0:
            return f"no {kind} token is left"
        if action.column not in valley.visible_columns():
            return f"column {action.column} is not a visible column of the Valley"
        return f"there is no visible {action.icon} in column {action.column} to cover"
    if isinstance(action, Swap):
        if action.card in t.received:
            return f"{action.card} was received in this exchange"
        if action.card in state._set.valley and UNSEEN in hand:
            if not t.deck:
                return "the deck is empty"
            if hand.count(UNSEEN) <= t.received.count(UNSEEN):
                return "both hand cards have been exchanged already; cards received are not exchanged again"
            return f"all copies of {action.card} are already in the Valley or set aside (ZT-E10)"
        if action.card in state._set.valley:
            return f"{action.card} is not in your hand" if action.card not in hand else "the deck is empty"
        if action.card not in state._set.contracts:
            return f"{action.card} is neither a Valley card nor a contract"
        return f"{action.card} is not one of your open contracts, or its pile is empty"
    if isinstance(action, SecondCross):
        return f"the second Cross goes on another dotted line ({valley.first} to {valley.last})"
    # Bonuses
    bonus = {
        BonusTokens: "tokens",
        BonusTask: "task",
        BonusExchange: "exchange",
        BonusGorge: "gorge",
        BonusCross: "crosses",
    }[type(action)]
    if not t.bonuses:
        return "this game is played without bonuses"
    if not state.bonus_entitled():
        at = " and ".join(str(n) for n in state.bonus_thresholds())
        return (
            f"a bonus is earned after completing contract number {at}, from the next turn on, one per "
            "threshold (rule text)"
        )
    if bonus == "gorge":
        if t.gorge is not None:
            return "a Gorge is already in the Valley"
        if t.gorges_used >= GORGE_CARDS:
            return "both Gorges have been used"
        return f"the Gorge goes over a column of the Valley ({valley.first} to {valley.last - 1})"
    if bonus in t.used:
        return f"the {bonus} bonus has already been used this game"
    if isinstance(action, BonusTask):
        return _why_not_task(state, action.contract, action.icon, claim=False)
    if isinstance(action, BonusCross):
        return f"a Cross goes on a dotted line of the Valley ({valley.first} to {valley.last})"
    return "that bonus cannot be used now"


def _why_not_entry(state: ZillertalState, action: Action) -> str:
    """ZT-E11: why `action` is not the contract being entered."""
    t = state._position
    owed = " or ".join(str(v) for v in sorted(set(t.to_draw)))
    if not isinstance(action, NewContract):
        what = "dealt to" if t.pending == DEAL else "drawn by"
        return f"first enter the contract {what} player {t.current} from pile {owed} (contract ID) (ZT-E11)"
    contract = state._set.contracts.get(action.contract)
    if contract is None:
        return f"{action.contract} is not a contract of this card set"
    if contract.points not in t.to_draw:
        return f"{action.contract} is worth {contract.points}: the contract now comes from pile {owed}"
    pile = t.piles[contract.points - 1]
    if t.pending == REDRAW and pile and pile[0] == action.contract:
        return f"{action.contract} was just exchanged: the contract drawn for it is another one"
    owner = next((p for p in range(t.players) if any(h.id == action.contract for h in t.contracts[p])), None)
    if owner is not None:
        return f"{action.contract} is already player {owner}'s contract"
    return f"{action.contract} has been completed and is no longer in pile {contract.points}"


def _why_not_task(state: ZillertalState, contract_id: str, icon: str, claim: bool) -> str:
    t = state._position
    held = next((h for h in t.contracts[t.current] if h.id == contract_id), None)
    if held is None:
        return f"{contract_id} is not one of your open contracts"
    contract = state._set.contracts[contract_id]
    target = contract.target(icon)
    if target is None:
        return f"{contract_id} has no {icon} task"
    if icon in held.claimed:
        return f"the {icon} task of {contract_id} is already claimed"
    if claim and t.claim_on not in (None, contract_id):
        return f"you claim on one contract per turn and have claimed on {t.claim_on} (rule text, ZT-7)"
    counts = {name: totals[ICON_INDEX[icon]] for name, totals in state.valley.zone_counts().items()}
    shown = ", ".join(f"{n} in {name}" for name, n in counts.items()) or "none"
    return f"{contract_id} needs exactly {target} {icon} visible in one zone; the Valley shows {shown}"
