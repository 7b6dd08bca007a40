/** The word mark: set in the display face, no image to load, never broken over two lines. */
export function Logo({ inverse = false }: { inverse?: boolean }) {
  return (
    <span className={`display text-2xl tracking-[0.08em] max-[359px]:text-xl whitespace-nowrap uppercase ${inverse ? 'text-paper' : 'text-ink'}`}>
      Velvet Rope
    </span>
  );
}
