/**
 * Repeated controls stay small: a page with a Reply, a Like and a Report under each of its
 * hundreds of comments lists each of them once, with how many more it has, rather than
 * `reply_2 … reply_200` (issue 29). Which controls are one control repeated is told from their
 * text alone, which needs no layout: the label without its digits, case or spacing ("Like 3" and
 * "Like 12" are one control).
 */
export function repeatKey(label: string): string {
  return label.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}
