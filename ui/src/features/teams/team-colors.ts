// The colours offered for a new team. A team's colour is data the server
// stores (spec "Team": a hex colour), not a design token, so the values live
// here and are shown as swatches next to their names.
export interface TeamColor {
  name: string;
  hex: string;
}

export const TEAM_COLORS: readonly TeamColor[] = [
  { name: 'Blue', hex: '#2f6fde' },
  { name: 'Green', hex: '#1f9d55' },
  { name: 'Orange', hex: '#d97706' },
  { name: 'Red', hex: '#dc2626' },
  { name: 'Purple', hex: '#7c3aed' },
  { name: 'Teal', hex: '#0d9488' },
  { name: 'Pink', hex: '#db2777' },
  { name: 'Grey', hex: '#6b7280' },
];

export const DEFAULT_TEAM_ICON = '🤖';
