// layerfuse-mpi: layerfuse-cli whose `explore` and `sweep` spread their work over the ranks of
// an MPI run (mpirun -np N, or srun under Slurm); rank 0 writes what one process would.
#include "commands.h"
#include "mpi_distribution.h"

#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
    // The searches call MPI from a worker thread, one call at a time.
    int provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        std::fprintf(stderr, "layerfuse-mpi: MPI_Init_thread failed\n");
        return 1;
    }
    int code = 1;
    if (provided < MPI_THREAD_SERIALIZED) {
        std::fprintf(stderr, "layerfuse-mpi: the MPI library does not allow calls from threads\n");
    } else {
        lf::mpi::MpiDistribution dist;
        lf::cli::setDistribution(&dist);
        code = lf::cli::runCli(argc, argv, "layerfuse-mpi");
        lf::cli::setDistribution(nullptr);
    }
    // A rank that fails takes the others down rather than leaving them waiting in a gather.
    if (code != 0) MPI_Abort(MPI_COMM_WORLD, code);
    MPI_Finalize();
    return code;
}
