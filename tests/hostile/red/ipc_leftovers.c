/* Leaves IPC objects that outlive the process: POSIX shared memory,
 * semaphores and message queues, SysV ones (key on line 2), named
 * `grundy-red-<line 3>`. */
#include "common.h"
#include <fcntl.h>
#include <mqueue.h>
#include <semaphore.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    read_token();
    char line[256];
    key_t key = next_line(line, sizeof line) ? (key_t)atol(line) : 4242;
    char tag[200];
    if (!next_line(tag, sizeof tag)) return 1;
    char name[256];
    snprintf(name, sizeof name, "/grundy-red-%s", tag);
    int fd = shm_open(name, O_CREAT | O_RDWR, 0666);
    if (fd >= 0) {
        ftruncate(fd, 1 << 20);
        printf("PWNED shm_open %s\n", name);
        pwned = 1;
    }
    sem_t *s = sem_open(name, O_CREAT, 0666, 1);
    if (s != SEM_FAILED) {
        printf("PWNED sem_open %s\n", name);
        pwned = 1;
    }
    mqd_t q = mq_open(name, O_CREAT | O_RDWR, 0666, NULL);
    if (q != (mqd_t)-1) {
        printf("PWNED mq_open %s\n", name);
        pwned = 1;
    }
    if (shmget(key, 1 << 20, IPC_CREAT | 0666) >= 0) {
        printf("PWNED shmget %d\n", key);
        pwned = 1;
    }
    if (msgget(key, IPC_CREAT | 0666) >= 0) {
        printf("PWNED msgget %d\n", key);
        pwned = 1;
    }
    if (semget(key, 1, IPC_CREAT | 0666) >= 0) {
        printf("PWNED semget %d\n", key);
        pwned = 1;
    }
    char fifo[300];
    snprintf(fifo, sizeof fifo, "/dev/shm/grundy-red-fifo-%s", tag);
    if (mkfifo(fifo, 0666) == 0) {
        printf("PWNED mkfifo %s\n", fifo);
        pwned = 1;
    }
    report();
    return 0;
}
