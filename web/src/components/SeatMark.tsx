import { SEAT_COLOURS, SEAT_INK, SEAT_LETTERS, SEAT_SHAPES } from "../seats";

/** A seat's marker: its shape in its colour with its letter (or an architect number). */
export function SeatMark({ seat, label, size = 22, title }: { seat: number; label?: string; size?: number; title?: string }) {
  const fill = SEAT_COLOURS[seat % 4];
  const ink = SEAT_INK[seat % 4];
  const shape = SEAT_SHAPES[seat % 4];
  const text = label ?? SEAT_LETTERS[seat % 4];
  return (
    <svg
      class="seat-mark"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      role={title ? "img" : undefined}
      aria-label={title}
      aria-hidden={title ? undefined : "true"}
      focusable="false"
    >
      {shape === "circle" && <circle cx="12" cy="12" r="10.5" fill={fill} stroke="#1a1a1a" stroke-width="1.2" />}
      {shape === "square" && <rect x="2" y="2" width="20" height="20" rx="2.5" fill={fill} stroke="#1a1a1a" stroke-width="1.2" />}
      {shape === "triangle" && <path d="M12 1.5 23 22H1z" fill={fill} stroke="#1a1a1a" stroke-width="1.2" stroke-linejoin="round" />}
      {shape === "diamond" && <path d="M12 1 23 12 12 23 1 12z" fill={fill} stroke="#1a1a1a" stroke-width="1.2" stroke-linejoin="round" />}
      <text
        x="12"
        y={shape === "triangle" ? 17.5 : 16.2}
        text-anchor="middle"
        font-size={shape === "triangle" ? 10 : 12}
        font-weight="700"
        fill={ink}
        font-family="system-ui, sans-serif"
      >
        {text}
      </text>
    </svg>
  );
}
