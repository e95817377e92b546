// The composer: Enter sends, Shift+Enter is a new line; a leading `@` offers
// the team's names (a listbox the textarea drives with aria-activedescendant:
// arrows move, Enter or Tab picks, Escape closes); a member picked in the
// roster shows as a removable chip; Stop replaces Send while anyone runs.
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { applyMention, leadingMention, mentionOptions, mentionQuery } from '../../features/chat/index.ts';
import type { Speaker } from './use-roster.ts';

export interface ComposerProps {
  speakers: readonly Speaker[];
  lead: Speaker | null;
  target: Speaker | null;
  onClearTarget: () => void;
  running: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  stopping: boolean;
  stopError: string | null;
}

export function Composer({ speakers, lead, target, onClearTarget, running, onSend, onStop, stopping, stopError }: ComposerProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const nextCaret = useRef<number | null>(null);

  const query = mentionQuery(text, caret);
  const options = query === null ? [] : mentionOptions(query, speakers);
  const open = query !== null && options.length > 0 && dismissed !== query;
  const current = Math.min(active, Math.max(0, options.length - 1));
  const recipient = target ?? leadingMention(text, speakers) ?? lead;

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && nextCaret.current !== null) {
      el.setSelectionRange(nextCaret.current, nextCaret.current);
      nextCaret.current = null;
    }
  });

  const update = (value: string, at: number) => {
    setText(value);
    setCaret(at);
    setActive(0);
  };
  const pick = (s: Speaker) => {
    const r = applyMention(text, caret, s.name);
    nextCaret.current = r.caret;
    update(r.text, r.caret);
    ref.current?.focus();
  };
  const submit = () => {
    const message = text.trim();
    if (message === '') return;
    onSend(message);
    update('', 0);
    setDismissed(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive((current + step + options.length) % options.length);
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        e.preventDefault();
        pick(options[current] as Speaker);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissed(query);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  };
  const syncCaret = () => setCaret(ref.current?.selectionStart ?? 0);

  return (
    <form
      className="relative border-t border-border bg-surface p-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {open && (
        <ul
          id="mention-listbox"
          role="listbox"
          aria-label="Team members to mention"
          className="absolute bottom-full left-3 z-10 mb-1 max-h-56 w-64 overflow-auto rounded-md border border-border bg-surface py-1 shadow-lg"
        >
          {options.map((s, i) => (
            <li
              key={s.id}
              id={`mention-option-${i}`}
              role="option"
              aria-selected={i === current}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(s)}
              className={`cursor-pointer px-3 py-1.5 text-sm ${i === current ? 'bg-accent text-accent-text' : 'hover:bg-surface-2'}`}
            >
              {s.name}
              {s.isLead ? ' (lead)' : ''}
            </li>
          ))}
        </ul>
      )}
      <p className="sr-only" role="status">
        {open ? `${options.length} ${options.length === 1 ? 'name matches' : 'names match'}: up and down to choose, Enter or Tab to pick, Escape to close.` : ''}
      </p>
      <div className="mb-2 flex flex-wrap items-center gap-2 text-xs text-muted">
        {target ? (
          <span className="inline-flex items-center gap-1 rounded-full border border-accent bg-surface-2 py-0.5 pr-1 pl-2 text-text">
            <span>To {target.name}</span>
            <button type="button" className="rounded-full px-1.5 hover:bg-surface" aria-label={`Stop sending only to ${target.name}`} onClick={onClearTarget}>
              ×
            </button>
          </span>
        ) : (
          <span id="composer-recipient">{recipient ? `To ${recipient.name}${recipient.isLead ? ' (lead)' : ''}` : 'No agent can answer yet'}</span>
        )}
        <span id="composer-hint" className="hidden sm:inline">
          @ to mention · Enter to send · Shift+Enter for a new line
        </span>
      </div>
      <div className="flex items-end gap-2">
        <label htmlFor="composer-input" className="sr-only">
          Message
        </label>
        <textarea
          id="composer-input"
          ref={ref}
          rows={2}
          value={text}
          placeholder="Write to your team…"
          aria-autocomplete="list"
          aria-controls={open ? 'mention-listbox' : undefined}
          aria-activedescendant={open ? `mention-option-${current}` : undefined}
          aria-describedby="composer-hint"
          className="input min-h-[2.75rem] flex-1 resize-y"
          onChange={(e) => update(e.target.value, e.target.selectionStart)}
          onKeyDown={onKeyDown}
          onSelect={syncCaret}
          onClick={syncCaret}
        />
        {running ? (
          <button type="button" className="btn btn-danger" onClick={onStop} disabled={stopping}>
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button type="submit" className="btn btn-primary" disabled={text.trim() === ''}>
            Send
          </button>
        )}
      </div>
      {stopError && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {stopError}
        </p>
      )}
    </form>
  );
}
