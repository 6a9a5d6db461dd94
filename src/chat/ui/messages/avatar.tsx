import { useEffect, useState } from 'preact/hooks';

/**
 * A sender's picture (decorative: the name is beside it), loaded only once its row has been
 * painted. Each SVG image (this project's server draws default avatars as SVG) costs the page a
 * document of its own, built on the main thread: ~5 ms each here, most of the time a list
 * took to draw. Text first, pictures a frame later.
 */
export function Avatar({ url }: { url: string }) {
  const [painted, setPainted] = useState(false);
  // Effects run after the browser has painted the new rows.
  useEffect(() => setPainted(true), []);
  return <img class="avatar" src={painted ? url : undefined} alt="" width={36} height={36} loading="lazy" />;
}
