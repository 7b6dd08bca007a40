/** The opening of a content page: optional eyebrow, one h1, a lead paragraph. */
export function PageIntro({
  eyebrow,
  title,
  lead,
  inverse = false,
}: {
  eyebrow?: string | undefined;
  title: string;
  lead?: React.ReactNode;
  inverse?: boolean;
}) {
  return (
    <div>
      {eyebrow && <p className={`eyebrow ${inverse ? 'text-paper/70' : 'text-stone'}`}>{eyebrow}</p>}
      <h1 className="display mt-4 text-4xl break-words sm:text-6xl">{title}</h1>
      {lead && <p className={`mt-6 max-w-prose text-lg leading-relaxed ${inverse ? 'text-paper/85' : 'text-stone'}`}>{lead}</p>}
    </div>
  );
}
