/*
 * hearth-holder: keeps one server process running while the daemon that started it is away (daemon killed,
 * crashed or upgraded), so a new daemon re-adopts it instead of starting a second copy (docs/daemon.md
 * § Supervision). One small C process per running server: 1.5–1.8 MiB resident, 0.2–0.5 MiB of it its own.
 *
 *   hearth-holder <mode pipe|tty> <role main|once> <history bytes> <cols> <rows> <cwd> -- <argv...>
 *
 * Started by the daemon with its working directory = the server's run directory (0700), the server's
 * environment as its own, fd 0/1 = the daemon's first connection (input in, output out), fd 3 = a one-line
 * handshake ("started <pid> <start time>" or "failed <errno>"). It runs argv in a new session (a pipe for
 * stdin and one for stdout+stderr, or a pseudo-terminal of cols x rows) and then:
 *  - owns the process's input: its write end stays open, so the process never sees EOF while no daemon is
 *    attached; what a daemon writes goes to the process;
 *  - reads the process's output and keeps its last <history bytes> (a ring) for the next daemon; while a
 *    daemon is attached the output goes to it too, with backpressure (as a direct pipe would); while none is,
 *    output is read at once and only the ring keeps it, so the process never blocks on a missing reader;
 *  - listens on ./sock (a Unix socket; only its own uid may connect): a new connection replaces the old one
 *    and first receives the ring, then live output;
 *  - writes ./state (version, role, mode, boot id, its own and the process's pid + start time) before the
 *    process may exec, so no process ever runs without a record; when the process has ended and its output is
 *    drained: ./output (the ring) and ./exit ("code N" or "signal N", plus the end time), then closes the
 *    connection and exits. Every file is written to a temporary name and renamed.
 * SIGTERM, SIGINT, SIGHUP and SIGQUIT are ignored (only the process's exit ends the holder), so a stop that
 * signals a whole control group still gets the exit recorded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define PROTOCOL 1
#define CHUNK 65536      /* one read of output; also the high-water mark of output queued for a daemon */
#define INPUT_MAX 65536  /* input queued for the process before the daemon's writes are held back */

struct ring { char *data; size_t cap, head, len; };       /* the last `cap` bytes of output */
struct queue { char *data; size_t cap, start, len; };     /* bytes waiting for a slow reader */

static struct ring history;
static struct queue to_daemon, to_game;
static int listen_fd = -1, client_r = -1, client_w = -1, out_fd = -1, in_fd = -1;
static int sig_pipe[2];
static pid_t game;
static int exited, exit_is_signal, exit_value;

static void die(const char *what) {
  dprintf(3, "failed %d %s\n", errno, what);
  _exit(1);
}

static void on_child(int sig) {
  (void)sig;
  int saved = errno;
  (void)!write(sig_pipe[1], "c", 1);
  errno = saved;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Field 22 of /proc/<pid>/stat (clock ticks after boot): with the pid it names one process, whatever reuse. */
static unsigned long long start_time(pid_t pid) {
  char path[64], text[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = 0;
  char *p = strrchr(text, ')'); /* the name may hold spaces and parentheses; fields follow the last ')' */
  if (!p) return 0;
  unsigned long long value = 0;
  for (int field = 2; field < 22 && p; field++) p = strchr(p + 1, ' ');
  if (p) value = strtoull(p + 1, NULL, 10);
  return value;
}

static void boot_id(char *out, size_t size) {
  int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
  ssize_t n = fd < 0 ? -1 : read(fd, out, size - 1);
  if (fd >= 0) close(fd);
  if (n < 0) n = 0;
  while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' ')) n--;
  out[n] = 0;
}

/* Writes `name` whole or not at all: a reader sees the old file, the new one, or none. */
static int write_file(const char *name, const char *a, size_t alen, const char *b, size_t blen) {
  char temp[64];
  snprintf(temp, sizeof temp, ".%s.tmp", name);
  int fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  int ok = 1;
  const char *parts[2] = {a, b};
  size_t lens[2] = {alen, blen};
  for (int i = 0; i < 2 && ok; i++) {
    for (size_t off = 0; off < lens[i] && ok;) {
      ssize_t n = write(fd, parts[i] + off, lens[i] - off);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ok = 0;
      else off += (size_t)n;
    }
  }
  if (close(fd) != 0) ok = 0;
  if (!ok || rename(temp, name) != 0) {
    unlink(temp);
    return -1;
  }
  return 0;
}

static void ring_add(const char *data, size_t n) {
  if (n >= history.cap) {
    memcpy(history.data, data + n - history.cap, history.cap);
    history.head = 0;
    history.len = history.cap;
    return;
  }
  size_t tail = (history.head + history.len) % history.cap;
  size_t first = history.cap - tail < n ? history.cap - tail : n;
  memcpy(history.data + tail, data, first);
  memcpy(history.data, data + first, n - first);
  history.len += n;
  if (history.len > history.cap) {
    history.head = (history.head + history.len - history.cap) % history.cap;
    history.len = history.cap;
  }
}

/* The ring in order, as two pieces. */
static void ring_parts(const char **a, size_t *alen, const char **b, size_t *blen) {
  size_t first = history.cap - history.head < history.len ? history.cap - history.head : history.len;
  *a = history.data + history.head;
  *alen = first;
  *b = history.data;
  *blen = history.len - first;
}

static void queue_add(struct queue *q, const char *data, size_t n) {
  if (q->start + q->len + n > q->cap) {
    memmove(q->data, q->data + q->start, q->len);
    q->start = 0;
  }
  memcpy(q->data + q->start + q->len, data, n);
  q->len += n;
}

/* Writes what the queue holds without blocking; -1 when the reader is gone. */
static int queue_flush(struct queue *q, int fd) {
  while (q->len > 0) {
    ssize_t n = write(fd, q->data + q->start, q->len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return 0;
    if (n <= 0) return -1;
    q->start += (size_t)n;
    q->len -= (size_t)n;
  }
  q->start = 0;
  return 0;
}

static void nonblocking(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* The daemon went away: keep fds 0 and 1 taken (by /dev/null) so no later descriptor lands there. */
static void drop_client(void) {
  if (client_r < 0) return;
  if (client_r <= 1) {
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    dup3(null, 0, O_CLOEXEC);
    dup3(null, 1, O_CLOEXEC);
    close(null);
  } else {
    close(client_r);
  }
  client_r = client_w = -1;
  to_daemon.len = to_daemon.start = 0;
}

static void accept_client(void) {
  int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (fd < 0) return;
  struct ucred cred;
  socklen_t len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || (cred.uid != geteuid() && cred.uid != 0)) {
    close(fd);
    return;
  }
  drop_client();
  client_r = client_w = fd;
  const char *a, *b;
  size_t alen, blen;
  ring_parts(&a, &alen, &b, &blen);
  queue_add(&to_daemon, a, alen);
  queue_add(&to_daemon, b, blen);
}

static void read_output(void) {
  char buf[CHUNK];
  ssize_t n = read(out_fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) { /* EOF (pipe) or EIO (terminal): every writer is gone; a pipe's input may still be read */
    if (in_fd == out_fd) in_fd = -1;
    close(out_fd);
    out_fd = -1;
    return;
  }
  ring_add(buf, (size_t)n);
  if (client_w >= 0) queue_add(&to_daemon, buf, (size_t)n);
}

static void read_input(void) {
  char buf[INPUT_MAX];
  size_t room = to_game.cap - to_game.len;
  ssize_t n = read(client_r, buf, room < sizeof buf ? room : sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) return drop_client();
  if (in_fd >= 0) queue_add(&to_game, buf, (size_t)n);
}

static void check_exit(void) {
  char drain[64];
  while (read(sig_pipe[0], drain, sizeof drain) > 0) {}
  if (exited) return;
  siginfo_t info;
  memset(&info, 0, sizeof info);
  /* WNOWAIT: the process stays a zombie, so its pid (and group) cannot be reused until the very end. */
  if (waitid(P_PID, (id_t)game, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != game) return;
  exited = 1;
  exit_is_signal = info.si_code != CLD_EXITED;
  exit_value = info.si_status;
  kill(-game, SIGKILL); /* what the process left in its group would hold the output open: no orphans */
}

static void loop(void) {
  while (!exited || out_fd >= 0) {
    struct pollfd fds[6];
    int n = 0, i_sig = -1, i_listen = -1, i_cr = -1, i_cw = -1, i_out = -1, i_in = -1;
    fds[i_sig = n++] = (struct pollfd){sig_pipe[0], POLLIN, 0};
    if (listen_fd >= 0) fds[i_listen = n++] = (struct pollfd){listen_fd, POLLIN, 0};
    if (client_r >= 0) {
      fds[i_cr = n++] = (struct pollfd){client_r, to_game.len < to_game.cap ? POLLIN : 0, 0};
      fds[i_cw = n++] = (struct pollfd){client_w, to_daemon.len > 0 ? POLLOUT : 0, 0};
    }
    if (out_fd >= 0 && (client_w < 0 || to_daemon.len < CHUNK)) fds[i_out = n++] = (struct pollfd){out_fd, POLLIN, 0};
    if (in_fd >= 0 && to_game.len > 0) fds[i_in = n++] = (struct pollfd){in_fd, POLLOUT, 0};
    if (poll(fds, (nfds_t)n, -1) < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    if (fds[i_sig].revents) check_exit();
    if (i_out >= 0 && fds[i_out].revents) read_output();
    if (i_in >= 0 && fds[i_in].revents && queue_flush(&to_game, in_fd) < 0) to_game.len = 0;
    if (i_cw >= 0 && client_w >= 0 && fds[i_cw].revents) {
      if ((fds[i_cw].revents & (POLLERR | POLLHUP)) && client_w != client_r) drop_client();
      else if (queue_flush(&to_daemon, client_w) < 0) drop_client();
    }
    if (i_cr >= 0 && client_r >= 0 && fds[i_cr].revents) read_input();
    if (i_listen >= 0 && fds[i_listen].revents) accept_client();
  }
}

/* The process has ended and its output is drained: leave the record, hand the rest to the daemon, go. */
static void finish(void) {
  close(listen_fd);
  unlink("sock");
  const char *a, *b;
  size_t alen, blen;
  ring_parts(&a, &alen, &b, &blen);
  write_file("output", a, alen, b, blen);
  char text[128];
  int len = snprintf(text, sizeof text, "%s %d\nended %lld\n", exit_is_signal ? "signal" : "code", exit_value,
                     now_ms());
  write_file("exit", text, (size_t)len, "", 0);
  if (client_w >= 0) {
    fcntl(client_w, F_SETFL, fcntl(client_w, F_GETFL) & ~O_NONBLOCK);
    queue_flush(&to_daemon, client_w);
  }
  waitpid(game, NULL, 0);
  _exit(0);
}

static int open_listener(void) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  strcpy(addr.sun_path, "sock");
  unlink("sock");
  if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 4) != 0) die("listen");
  return fd;
}

/* The same terminal settings node-pty gives a process (UTF-8 aware line editing, CR → NL on input). */
static void set_terminal(int fd, int cols, int rows) {
  struct termios t;
  if (tcgetattr(fd, &t) == 0) {
    t.c_iflag = ICRNL | IXON | IXANY | IMAXBEL | BRKINT | IUTF8;
    t.c_oflag = OPOST | ONLCR;
    t.c_cflag = CREAD | CS8 | HUPCL;
    t.c_lflag = ICANON | ISIG | IEXTEN | ECHO | ECHOE | ECHOK | ECHOKE | ECHOCTL;
    cfsetispeed(&t, B38400);
    cfsetospeed(&t, B38400);
    tcsetattr(fd, TCSANOW, &t);
  }
  struct winsize size = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
  ioctl(fd, TIOCSWINSZ, &size);
}

/* In the child: default signal handling, a new session, the process's stdio, then exec once allowed. */
static void child(int tty, int game_in, int game_out, const char *cwd, const int go[2], int err, char **argv) {
  close(go[1]); /* else this process would hold the write end itself and never see the holder die */
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL);
  setsid();
  if (tty) ioctl(game_out, TIOCSCTTY, 0);
  if (dup2(game_in, 0) < 0 || dup2(game_out, 1) < 0 || dup2(game_out, 2) < 0) goto fail;
  char byte;
  if (read(go[0], &byte, 1) != 1) _exit(127); /* the holder died before recording us: never run unrecorded */
  if (chdir(cwd) != 0) goto fail;
  execvp(argv[0], argv);
fail:;
  int code = errno;
  (void)!write(err, &code, sizeof code);
  _exit(127);
}

int main(int argc, char **argv) {
  if (argc < 9 || strcmp(argv[7], "--") != 0) return 2;
  const char *mode = argv[1], *role = argv[2], *cwd = argv[6];
  int tty = strcmp(mode, "tty") == 0;
  history.cap = strtoul(argv[3], NULL, 10);
  if (history.cap < CHUNK) history.cap = CHUNK;
  history.data = malloc(history.cap);
  to_daemon = (struct queue){malloc(history.cap + 2 * CHUNK), history.cap + 2 * CHUNK, 0, 0};
  to_game = (struct queue){malloc(INPUT_MAX), INPUT_MAX, 0, 0};
  if (!history.data || !to_daemon.data || !to_game.data) die("memory");
  fcntl(3, F_SETFD, FD_CLOEXEC);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0) die("pipe");
  struct sigaction sa = {.sa_handler = on_child, .sa_flags = SA_RESTART | SA_NOCLDSTOP};
  sigaction(SIGCHLD, &sa, NULL);
  listen_fd = open_listener();

  int game_in, game_out, go[2], err[2];
  if (pipe2(go, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) die("pipe");
  if (tty) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) die("openpt");
    const char *name = ptsname(master);
    int slave = name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
    if (slave < 0) die("open pts");
    set_terminal(slave, atoi(argv[4]), atoi(argv[5]));
    game_in = game_out = slave;
    out_fd = in_fd = master;
  } else {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) die("pipe");
    game_in = in[0];
    game_out = out[1];
    in_fd = in[1];
    out_fd = out[0];
  }
  game = fork();
  if (game < 0) die("fork");
  if (game == 0) child(tty, game_in, game_out, cwd, go, err[1], argv + 8);
  close(game_in);
  if (game_out != game_in) close(game_out);
  close(go[0]);
  close(err[1]);

  char boot[64], state[512];
  boot_id(boot, sizeof boot);
  unsigned long long game_start = start_time(game);
  int len = snprintf(state, sizeof state,
                     "hearth-holder %d\nrole %s\nmode %s\nboot %s\nholder %d %llu\ngame %d %llu\nstarted %lld\n",
                     PROTOCOL, role, mode, boot, (int)getpid(), start_time(getpid()), (int)game, game_start,
                     now_ms());
  if (write_file("state", state, (size_t)len, "", 0) != 0) {
    kill(game, SIGKILL);
    die("state");
  }
  (void)!write(go[1], "g", 1);
  close(go[1]);
  int code;
  if (read(err[0], &code, sizeof code) == (ssize_t)sizeof code) { /* exec failed: nothing ran */
    waitpid(game, NULL, 0);
    unlink("state");
    unlink("sock");
    dprintf(3, "failed %d exec\n", code);
    return 0;
  }
  close(err[0]);
  dprintf(3, "started %d %llu\n", (int)game, game_start);
  close(3);
  client_r = 0;
  client_w = 1;
  nonblocking(0);
  nonblocking(1);
  nonblocking(out_fd);
  if (in_fd != out_fd) nonblocking(in_fd);
  loop();
  finish();
  return 0;
}
