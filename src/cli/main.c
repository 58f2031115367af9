/* main.c - ptbuild: make a PyTorch + CUDA source build come out right. */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return ptb_cli_main(argc, argv);
}
