// Prisma's unique-constraint failure: a row another call wrote first (a tag name the learner already has,
// the same file kept by two calls at once).
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'P2002';
}
