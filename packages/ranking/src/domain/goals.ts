// The four optimization goals a caller can rank, and how a ranking becomes score weights.

/** Goals a caller may name in optimizationPreferences, in no particular order. */
export const GOALS = ["cost", "reliability", "speed", "quality"] as const;
export type Goal = (typeof GOALS)[number];

export function isGoal(value: unknown): value is Goal {
  return typeof value === "string" && (GOALS as readonly string[]).includes(value);
}

/** How a preference order turns into weights. */
export interface WeightScheme {
  /** Each named goal weighs `decay` times the one ranked before it (0 < decay <= 1). Default 0.3. */
  decay: number;
  /** Raw weight of every goal the caller did not name, before normalising (>= 0). Default 0.05. */
  unnamedWeight: number;
}

export type GoalWeights = Readonly<Record<Goal, number>>;

/**
 * Rank-decayed weights: the goal at rank i (0 = first) gets decay^i, every unnamed goal gets
 * `unnamedWeight`, and the weights are normalised to sum to 1. With the defaults, ["cost"] gives
 * cost 0.87 and 0.04 to each other goal; ["cost", "quality"] gives 0.71 / 0.21 / 0.04 / 0.04, so the
 * first goal dominates and later ones mostly break near-ties.
 */
export function goalWeights(preferences: readonly Goal[], scheme: WeightScheme): GoalWeights {
  const raw = Object.fromEntries(GOALS.map((g) => [g, scheme.unnamedWeight])) as Record<Goal, number>;
  preferences.forEach((goal, rank) => {
    raw[goal] = scheme.decay ** rank;
  });
  const total = GOALS.reduce((sum, g) => sum + raw[g], 0);
  return Object.fromEntries(GOALS.map((g) => [g, raw[g] / total])) as GoalWeights;
}
