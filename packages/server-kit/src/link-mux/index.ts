export { LinkMux, DEFAULT_WINDOW, type LinkMuxOptions, type LinkSocket } from './mux';
export { MuxStream } from './stream';
export { MAX_DATA, LinkProtocolError } from './frames';
