// Our own drawings of the buildings and pieces (never artwork from the published game).
// Every icon is a 32x32 SVG drawn with currentColor so the palette lives in CSS.
import type { JSX } from "preact";
import type { BuildingType } from "../types";

type IconProps = { class?: string; title?: string; size?: number };

function Svg({ children, class: cls, title, size }: IconProps & { children: JSX.Element | JSX.Element[] }) {
  return (
    <svg
      class={cls}
      viewBox="0 0 32 32"
      width={size}
      height={size}
      aria-hidden={title ? undefined : "true"}
      role={title ? "img" : undefined}
      aria-label={title}
      focusable="false"
    >
      {children}
    </svg>
  );
}

const BUILDING_PATHS: Record<BuildingType, () => JSX.Element> = {
  tower_block: () => (
    <g>
      <rect x="8" y="4" width="16" height="25" rx="1.5" fill="currentColor" />
      <g fill="var(--icon-window, #fff)">
        <rect x="11" y="7" width="3" height="3" />
        <rect x="18" y="7" width="3" height="3" />
        <rect x="11" y="13" width="3" height="3" />
        <rect x="18" y="13" width="3" height="3" />
        <rect x="11" y="19" width="3" height="3" />
        <rect x="18" y="19" width="3" height="3" />
        <rect x="14.5" y="24" width="3" height="5" />
      </g>
    </g>
  ),
  shop: () => (
    <g>
      <rect x="6" y="14" width="20" height="15" fill="currentColor" />
      <path d="M4 8h24l-1.5 7H5.5z" fill="currentColor" />
      <path d="M9 8l-1 7M14 8v7M18 8v7M23 8l1 7" stroke="var(--icon-window, #fff)" stroke-width="1.6" />
      <rect x="9" y="18" width="6" height="5" fill="var(--icon-window, #fff)" />
      <rect x="18" y="18" width="5" height="11" fill="var(--icon-window, #fff)" />
    </g>
  ),
  public_service: () => (
    <g fill="currentColor">
      <path d="M16 3 3 10h26z" />
      <rect x="4" y="11" width="24" height="2.5" />
      <rect x="6" y="15" width="3" height="10" />
      <rect x="12" y="15" width="3" height="10" />
      <rect x="17" y="15" width="3" height="10" />
      <rect x="23" y="15" width="3" height="10" />
      <rect x="3" y="26" width="26" height="3" />
    </g>
  ),
  park: () => (
    <g>
      <rect x="14.5" y="18" width="3" height="11" fill="currentColor" />
      <circle cx="16" cy="12" r="8" fill="currentColor" />
      <circle cx="10" cy="17" r="4.5" fill="currentColor" />
      <circle cx="22" cy="17" r="4.5" fill="currentColor" />
    </g>
  ),
  factory: () => (
    <g fill="currentColor">
      <rect x="21" y="5" width="4" height="12" />
      <path d="M3 29V15l6 4v-4l6 4v-4l6 4v-2h8v12z" />
      <circle cx="25" cy="3.5" r="2" opacity=".55" />
      <circle cx="28.5" cy="2.5" r="1.5" opacity=".4" />
      <g fill="var(--icon-window, #fff)">
        <rect x="7" y="23" width="3" height="3" />
        <rect x="13" y="23" width="3" height="3" />
        <rect x="19" y="23" width="3" height="3" />
      </g>
    </g>
  ),
  harbor: () => (
    <g fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round">
      <circle cx="16" cy="6" r="2.6" />
      <path d="M16 9v19M10 13h12M6 19c0 6 4.5 9 10 9s10-3 10-9" />
      <path d="M4 21l2-3 2.5 2.5M28 21l-2-3-2.5 2.5" />
    </g>
  ),
  office_tower: () => (
    <g>
      <path d="M11 29V7l5-3 5 3v22z" fill="currentColor" />
      <rect x="15.2" y="0.5" width="1.6" height="4" fill="currentColor" />
      <path d="M13 10h6M13 14h6M13 18h6M13 22h6M13 26h6" stroke="var(--icon-window, #fff)" stroke-width="1.4" />
      <rect x="5" y="17" width="5" height="12" fill="currentColor" opacity=".6" />
      <rect x="22" y="13" width="5" height="16" fill="currentColor" opacity=".6" />
    </g>
  ),
  monument: () => (
    <g fill="currentColor">
      <path d="M14 6l2-4 2 4 1 17h-6z" />
      <rect x="10" y="23" width="12" height="3" />
      <rect x="7" y="26.5" width="18" height="3" />
    </g>
  ),
};

export function BuildingIcon({ type, playground, ...rest }: IconProps & { type: BuildingType; playground?: boolean }) {
  if (type === "park" && playground) return <PlaygroundIcon {...rest} />;
  return <Svg {...rest}>{BUILDING_PATHS[type]()}</Svg>;
}

export function PlaygroundIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <g fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round">
        <path d="M5 29 11 5h10l6 24M11 5l-3 24M21 5l3 24" />
        <path d="M14 5v13M18 5v13" stroke-width="1.4" />
        <rect x="12.5" y="18" width="7" height="2.5" fill="currentColor" stroke="none" />
      </g>
    </Svg>
  );
}

export function PersonIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <g fill="currentColor">
        <circle cx="16" cy="8" r="5.5" />
        <path d="M6 30c0-8 4.5-13 10-13s10 5 10 13z" />
      </g>
    </Svg>
  );
}

export function EnergyIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M19 2 6 18h8l-3 12 15-17h-9z" fill="currentColor" />
    </Svg>
  );
}

export function StarIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M16 2.5l4 8.6 9.4 1.1-7 6.5 1.9 9.3L16 23.3 7.7 28l1.9-9.3-7-6.5 9.4-1.1z" fill="currentColor" />
    </Svg>
  );
}

/** The mayor pawn: a top hat with a sash. */
export function MayorIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <g fill="currentColor">
        <rect x="9" y="4" width="14" height="17" rx="1.5" />
        <rect x="3" y="21" width="26" height="4" rx="2" />
      </g>
      <rect x="9" y="15" width="14" height="3" fill="var(--mayor-band, #e8b400)" />
    </Svg>
  );
}

/** The urbanist pawn: a hard hat over a figure. */
export function UrbanistIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <g fill="currentColor" stroke="#fff" stroke-width="1.5">
        <path d="M5 30c0-8 5-12 11-12s11 4 11 12z" />
        <circle cx="16" cy="12" r="6" />
      </g>
      <path d="M8 9a8 7 0 0 1 16 0z" fill="#f5c400" stroke="#222" stroke-width="1.2" />
      <rect x="6" y="8.5" width="20" height="2.4" rx="1" fill="#f5c400" stroke="#222" stroke-width="1" />
    </Svg>
  );
}

export function BlockedIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <g fill="none" stroke="currentColor" stroke-width="3">
        <circle cx="16" cy="16" r="11" />
        <path d="M8.5 23.5l15-15" />
      </g>
    </Svg>
  );
}

export function LeafIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M27 4C12 4 5 11 5 20c0 3 1 5 2 7 2-6 7-11 13-14-5 4-9 9-10 15 2 1 4 1 6 1 9 0 12-9 11-25z" fill="currentColor" />
    </Svg>
  );
}

export function CheckIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M5 17l7 7L27 8" fill="none" stroke="currentColor" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" />
    </Svg>
  );
}

export function CrossIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M7 7l18 18M25 7 7 25" fill="none" stroke="currentColor" stroke-width="4" stroke-linecap="round" />
    </Svg>
  );
}

export function LightbulbIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <g fill="currentColor">
        <path d="M16 2a10 10 0 0 0-6 18c1.3 1 2 2.4 2 4h8c0-1.6.7-3 2-4A10 10 0 0 0 16 2z" />
        <rect x="12" y="25" width="8" height="2.5" rx="1" />
        <rect x="13" y="28.5" width="6" height="2.5" rx="1" />
      </g>
    </Svg>
  );
}

export function UndoIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M12 6 4 13l8 7M5 13h13a8 8 0 0 1 0 16h-5" fill="none" stroke="currentColor" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round" />
    </Svg>
  );
}

export function TrashIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <g fill="currentColor">
        <rect x="5" y="6" width="22" height="3" rx="1" />
        <rect x="12" y="3" width="8" height="3" rx="1" />
        <path d="M7 10h18l-1.5 19h-15z" />
      </g>
    </Svg>
  );
}

export function PlayIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M9 5v22l18-11z" fill="currentColor" />
    </Svg>
  );
}

export function PauseIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <g fill="currentColor">
        <rect x="7" y="5" width="6" height="22" />
        <rect x="19" y="5" width="6" height="22" />
      </g>
    </Svg>
  );
}

export function StepIcon({ back, end, ...props }: IconProps & { back?: boolean; end?: boolean }) {
  return (
    <Svg {...props}>
      <g fill="currentColor" transform={back ? "translate(32 0) scale(-1 1)" : undefined}>
        <path d={end ? "M5 5v22l14-11z" : "M8 5v22l16-11z"} />
        {end ? <rect x="21" y="5" width="5" height="22" /> : <g />}
      </g>
    </Svg>
  );
}

/** The city logo: four blocks in a square, a nod to the game's name. */
export function LogoIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect x="2" y="14" width="8" height="16" rx="1" fill="#0072B2" />
      <rect x="12" y="4" width="8" height="26" rx="1" fill="#E69F00" />
      <rect x="22" y="10" width="8" height="20" rx="1" fill="#009E73" />
      <g fill="#fff">
        <rect x="4" y="17" width="4" height="2" />
        <rect x="4" y="22" width="4" height="2" />
        <rect x="14" y="8" width="4" height="2" />
        <rect x="14" y="13" width="4" height="2" />
        <rect x="14" y="18" width="4" height="2" />
        <rect x="24" y="14" width="4" height="2" />
        <rect x="24" y="19" width="4" height="2" />
      </g>
    </Svg>
  );
}

/** A loudspeaker, with sound waves when `on`, struck through when off. */
export function SoundIcon({ on, ...props }: IconProps & { on: boolean }) {
  return (
    <Svg {...props}>
      <path d="M4 12h6l8-7v22l-8-7H4z" fill="currentColor" />
      {on ? (
        <path d="M22 11a7 7 0 0 1 0 10M25 7a12 12 0 0 1 0 18" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" />
      ) : (
        <path d="m22 12 8 8m0-8-8 8" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" />
      )}
    </Svg>
  );
}
