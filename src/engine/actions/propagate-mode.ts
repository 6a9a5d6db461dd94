/** Which messages a topic or channel move takes: the edited one, it and the later ones of its topic, or the whole topic. */
export const PROPAGATE_MODES = ['change_one', 'change_later', 'change_all'] as const;

export type PropagateMode = (typeof PROPAGATE_MODES)[number];
