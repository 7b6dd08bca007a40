/**
 * A button's label that breaks only between words. Browsers also break after the hyphen of a
 * compound ("E-/MAIL", "E-/POSTADRESS"), which on a narrow button leaves a stranded fragment;
 * each hyphenated word is kept on one line, so a label wraps at its spaces only. One element
 * around the whole label: in a flex button every child is its own flex item, so the words
 * must share one box to flow as one paragraph.
 */
export function ButtonLabel({ children }: { children: string }) {
  return (
    <span>
      {children.split(/(\s+)/).map((part, index) =>
        part.includes('-') ? (
          <span key={index} className="whitespace-nowrap">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </span>
  );
}
