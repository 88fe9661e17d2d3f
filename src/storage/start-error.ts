/** Error with a message fit for the user (the serve command prints it as one line). */
export class StartError extends Error {}
