/** Types of the landing blocks, narrowed from the collection schema so each component takes exactly its block. */
import type { LandingBlock } from '@/content.config';

type BlockOf<T extends LandingBlock['type']> = Extract<LandingBlock, { type: T }>;
export type BlockLinkData = BlockOf<'hero'>['buttons'][number];

/** What a block's component is given: its block, and the id its heading carries. */
export interface BlockProps<T extends LandingBlock['type']> {
  block: BlockOf<T>;
  headingId: string;
}

/** Ids for a block's heading, so each section is labelled by it (`aria-labelledby`). */
export const headingId = (index: number) => `block-${index + 1}-heading`;
