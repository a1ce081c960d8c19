// Tag names are unique per learner regardless of case and surrounding spaces.
export function tagKey(name: string): string {
  return name.trim().normalize('NFC').toLocaleLowerCase('en-US');
}
