/** Why a directory could not be created or used, in a few words, for the error codes a user can fix. */
const DIR_PROBLEMS: Record<string, string> = {
  EEXIST: 'it is a file, not a directory',
  ENOTDIR: 'part of the path is a file, not a directory',
  EACCES: 'permission denied',
  EROFS: 'read-only file system',
  ENOENT: 'not a usable path',
  ENAMETOOLONG: 'the path is too long',
  ERR_INVALID_ARG_VALUE: 'not a valid path',
};

/** The problem `error` (from mkdir and friends) names, or undefined when it is not one of those. */
export function dirProblem(error: unknown): string | undefined {
  return DIR_PROBLEMS[(error as NodeJS.ErrnoException).code ?? ''];
}
