#!/bin/sh
echo found > secret-answer.txt
